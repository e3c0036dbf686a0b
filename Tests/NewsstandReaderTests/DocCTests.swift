import Foundation
import NewsstandTestSupport
import Testing

/// The DocC site `make docs` builds: the symbol graphs of the modules this test run was built
/// with, then the toolchain's docc (`scripts/build-docs.sh`, which fails on any docc warning and
/// on a public type missing from its landing page), then `IssueLibrary`'s page in headless
/// Chromium, which must show the symbol's documentation, not DocC's empty shell.
@Suite(.tags(.needsTools)) struct DocCTests {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("docc_check.py")

    @Test(.timeLimit(.minutes(3)))
    func theSiteBuildsWithoutWarningsAndShowsIssueLibraryInChromium() throws {
        let site = try Shell.temporaryFolder("docc").appendingPathComponent("site")
        let binPath = URL(fileURLWithPath: Shell.newsstand).deletingLastPathComponent().path
        let build = try Shell.run(
            "/bin/sh", ["scripts/build-docs.sh", site.path], environment: ["NEWSSTAND_BIN_PATH": binPath],
            in: Shell.repositoryRoot)
        #expect(build.status == 0, "build-docs.sh exited \(build.status):\n\(build.stderr)\n\(build.stdout)")
        #expect(!build.stdout.contains("warning:") && !build.stderr.contains("warning:"), "\(build.stdout)\(build.stderr)")
        #expect(build.stdout.contains("curates all"), "\(build.stdout)")
        let reader = site.appendingPathComponent("NewsstandReader")
        let page = "documentation/newsstandreader/issuelibrary"
        #expect(FileManager.default.fileExists(atPath: reader.appendingPathComponent(page + "/index.html").path))
        let check = try Shell.run(
            "/usr/bin/python3",
            [
                Self.script.path, reader.path, page, "IssueLibrary",
                "The shelf of issues on this device", "Several processes: no lock is held",
                "init(folder: URL, scale: LibraryScale, configuration: LibraryConfiguration)", "func refresh(from: URL?)",
            ])
        #expect(check.status == 0, "docc check exited \(check.status):\n\(check.stderr)\n\(check.stdout)")
        #expect(check.stdout.contains("docc check passed"), "\(check.stdout)\(check.stderr)")
    }
}
