import Foundation
import NewsstandTestSupport
import Testing

/// The sample's preview in a real browser: headless Chromium driven by Selenium through
/// chromedriver, all from Debian's packages (chromium, chromium-driver, python3-selenium,
/// installed by `make deps`). Missing packages make this test fail, not skip.
///
/// Set `NEWSSTAND_PREVIEW_SCREENSHOTS=<folder>` to also save `preview-index.png` and
/// `preview-issue.png` there (as in `docs/`).
@Suite(.tags(.needsTools)) struct BrowserTests {
    /// Debian's Python, which python3-selenium installs for (not a `python3` earlier on PATH).
    static let python = "/usr/bin/python3"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("browser_check.py")

    @Test(.timeLimit(.minutes(3)))
    func sampleRendersAndNavigatesInChromium() throws {
        let (report, output) = try PreviewFixtures.preview(PreviewFixtures.sample)
        #expect(report.issues == ["a-3", "a-2", "a-1"])
        var arguments = [Self.script.path, output.path] + report.issues
        if let folder = ProcessInfo.processInfo.environment["NEWSSTAND_PREVIEW_SCREENSHOTS"], !folder.isEmpty {
            arguments += ["--screenshots", folder]
        }
        #expect(FileManager.default.isExecutableFile(atPath: Self.python), "\(Self.python) is missing: install Debian's python3")
        let result = try Shell.run(Self.python, arguments)
        #expect(result.status == 0, "browser check exited \(result.status):\n\(result.stderr)\n\(result.stdout)")
        #expect(result.stdout.contains("browser check passed"), "\(result.stdout)\n\(result.stderr)")
    }
}
