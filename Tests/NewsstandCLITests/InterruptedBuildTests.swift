import Foundation
import NewsstandTestSupport
import Testing

/// `build --optimize` stopped part-way through an issue's images: the next build takes what the
/// first one finished from the cache, and no temporary file of the stopped one stays in
/// `.newsstand/images/`. Stopped with SIGKILL: `build` has no handler of its own, so Ctrl-C's
/// SIGINT ends it the same way (and a child that Foundation's `Process` starts may have SIGINT
/// blocked, which is why the test does not rely on it).
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
}
