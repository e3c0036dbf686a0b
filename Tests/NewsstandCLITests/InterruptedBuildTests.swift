import Foundation
import NewsstandTestSupport
import Testing

/// `build --optimize` stopped part-way through an issue's images: the next build takes what the
/// first one finished from the cache, and no temporary file of the stopped one stays in
/// `.newsstand/images/`. Stopped with SIGKILL: Ctrl-C's SIGINT ends it the same way once it has said
/// what it kept (the tests below).
@Suite(.tags(.needsTools)) struct InterruptedBuildTests {
    @Test func anInterruptedOptimisationKeepsWhatItFinishedAndLeavesNoTemporaryFiles() throws {
        let work = try Shell.temporaryFolder("interrupted")
        let magazine = work.appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: Shell.repositoryRoot.appendingPathComponent("Samples/aurora"), to: magazine)
        let output = work.appendingPathComponent("out")
        let images = output.appendingPathComponent("a-1/.newsstand/images")
        let names = { () -> [String] in (try? FileManager.default.contentsOfDirectory(atPath: images.path)) ?? [] }

        // One image at a time, so that the build is surely inside its image work when stopped.
        let first = try BackgroundProcess(
            Shell.newsstand, ["build", magazine.path, "--output", output.path, "--optimize", "--jobs", "1", "--issue", "a-1"])
        defer { first.kill() }
        let started = BackgroundProcess.poll(timeout: 300) { names().filter { !$0.hasPrefix(".") }.count >= 3 }
        #expect(started, "the build made no images: \(first.output)\(first.errors)")
        first.killNow()
        first.wait()
        let finished = names().filter { !$0.hasPrefix(".") }.count

        let second = try Shell.run(
            "timeout", ["600", Shell.newsstand, "build", magazine.path, "--output", output.path, "--optimize", "--issue", "a-1"])
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        // "derived N …, M from the cache; optimised N …, M from the cache": at least the
        // images finished before the one being made when Ctrl-C came.
        let fromCache = try NSRegularExpression(pattern: "(\\d+) from the cache")
            .matches(in: second.stdout, range: NSRange(second.stdout.startIndex..., in: second.stdout))
            .compactMap { Int((second.stdout as NSString).substring(with: $0.range(at: 1))) }.reduce(0, +)
        #expect(fromCache >= finished - 1, "\(finished) made before the interruption: \(second.stdout)")
        #expect(fromCache > 0, "\(second.stdout)")
        #expect(!names().contains { $0.hasPrefix(".") }, "\(names())")
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("a-1/.newsstand/images.journal").path))
    }

    /// Ctrl-C during a build says what was kept and what the next run cleans, and the build
    /// still ends by the signal (130 in a shell).
    @Test func ctrlCDuringABuildSaysWhatWasKept() throws {
        let work = try Shell.temporaryFolder("interrupted-note")
        let magazine = work.appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: Shell.repositoryRoot.appendingPathComponent("Samples/aurora"), to: magazine)
        let output = work.appendingPathComponent("out")
        let images = output.appendingPathComponent("a-1/.newsstand/images")
        let build = try BackgroundProcess(
            Shell.newsstand, ["build", magazine.path, "--output", output.path, "--optimize", "--jobs", "1", "--issue", "a-1"])
        defer { build.kill() }
        let started = BackgroundProcess.poll(timeout: 300) {
            ((try? FileManager.default.contentsOfDirectory(atPath: images.path)) ?? []).count >= 2
        }
        #expect(started, "the build made no images: \(build.output)\(build.errors)")
        build.interrupt()
        #expect(build.wait() == SIGINT)
        #expect(
            build.errors.contains("newsstand build: interrupted: what was finished is kept in \(output.path)"), "\(build.errors)")
        #expect(build.errors.contains("Run the same command again: it makes only what is missing"))
    }

    /// Ctrl-C during an import says nothing was added and what the next import removes.
    @Test func ctrlCDuringAnImportSaysNothingWasAdded() throws {
        let work = try Shell.temporaryFolder("interrupted-import")
        let magazine = work.appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: Shell.repositoryRoot.appendingPathComponent("Samples/aurora"), to: magazine)
        let pdf = work.appendingPathComponent("print.pdf")
        try HandMadePDF(pages: (1...200).map { .text("page \($0)") }).write(to: pdf)
        let issues = magazine.appendingPathComponent("issues")
        let importing = try BackgroundProcess(
            Shell.newsstand,
            ["import", pdf.path, magazine.path, "--issue", "im-1", "--title", "T", "--date", "2026-12-01", "-j", "1"])
        defer { importing.kill() }
        let started = BackgroundProcess.poll(timeout: 120) {
            ((try? FileManager.default.contentsOfDirectory(atPath: issues.path)) ?? []).contains {
                $0.hasPrefix(".newsstand-import-im-1-") && !$0.hasSuffix(".lock")
            }
        }
        #expect(started, "the import made no folder: \(importing.output)\(importing.errors)")
        importing.interrupt()
        #expect(importing.wait() == SIGINT)
        #expect(
            importing.errors.contains("newsstand import: interrupted: nothing was added to \(issues.path)/"),
            "\(importing.errors)")
        #expect(importing.errors.contains("which the next import into the magazine removes"))
        #expect(!FileManager.default.fileExists(atPath: issues.appendingPathComponent("im-1").path))
    }
}
