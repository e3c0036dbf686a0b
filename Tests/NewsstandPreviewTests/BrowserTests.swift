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

    /// The issue view as a reader wants it, at a desktop (1280x900) and a phone (390x844)
    /// window: each page fills the room the window gives it on one axis, scaled up when the
    /// image is smaller (a 384x512 page used 57% of a 1280x900 window), and the page map stays
    /// inside its 64-px bar with an article of nine pages. The screenshots
    /// (`layout-desktop.png`, `layout-phone.png`) are in the folder the test names.
    @Test(.timeLimit(.minutes(3)))
    func pagesFillTheWindowAndTheMapStaysInItsBar() throws {
        let work = try Shell.temporaryFolder("layout")
        let magazine = work.appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: PreviewFixtures.sample, to: magazine)
        // a-2's fourth article, of three pages, made nine.
        let pages = magazine.appendingPathComponent("issues/a-2/pages.plist")
        let grown = try Shell.python(
            "import plistlib, sys\np = plistlib.load(open(sys.argv[1], 'rb'))\np[3] = p[3] * 3\n"
                + "plistlib.dump(p, open(sys.argv[1], 'wb'))\n",
            [pages.path])
        #expect(grown.status == 0, "\(grown.stderr)")
        let (report, output) = try PreviewFixtures.preview(magazine)
        let screenshots =
            ProcessInfo.processInfo.environment["NEWSSTAND_PREVIEW_SCREENSHOTS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? work.appendingPathComponent("screenshots").path
        let result = try Shell.run(
            Self.python, [Self.script.path, output.path] + report.issues + ["--layout", "a-2", "--screenshots", screenshots])
        #expect(result.status == 0, "browser check exited \(result.status):\n\(result.stderr)\n\(result.stdout)")
        #expect(result.stdout.contains("layout check passed"), "\(result.stdout)\n\(result.stderr)")
        #expect(
            FileManager.default.fileExists(atPath: screenshots + "/layout-phone.png"), "screenshots in \(screenshots)")
    }
}
