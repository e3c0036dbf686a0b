import Foundation
import NewsstandCLI
import NewsstandTestSupport
import Testing

/// `build --feed epub` run in process: the same issue gives the same EPUB anywhere and any time,
/// and a page without a base image fails the build naming it. The EPUBs checked by EPUBCheck and
/// read back by Python are in `EPUBChannelTests`.
@Suite struct EPUBBuildTests {
    let epub = EPUBChannelTests()

    @Test func theSameIssueGivesTheSameEPUBAnywhereAndAnyTime() async throws {
        let first = try Shell.temporaryFolder("epub").appendingPathComponent("out")
        let second = try Shell.temporaryFolder("epub").appendingPathComponent("elsewhere")
        _ = try await epub.build(epub.sample, first)
        _ = try await epub.build(
            epub.sample, second, ["--jobs", "1"], environment: ["SOURCE_DATE_EPOCH": "1800000000", "TZ": "America/Los_Angeles"])
        let (a, b) = (try epub.epubs(in: first), try epub.epubs(in: second))
        for name in ["a-1", "a-2", "a-3"] {
            let (x, y) = (try #require(a[name]), try #require(b[name]))
            #expect(x.lastPathComponent == y.lastPathComponent)
            let same = try Data(contentsOf: x) == Data(contentsOf: y)
            #expect(same, "\(name): two builds wrote different EPUBs")
        }
        // Forced again in place: the same bytes under the same names; the JSON report counts them.
        let before = try epub.epubs(in: first).mapValues { try Data(contentsOf: $0) }
        let forced = try await epub.build(epub.sample, first, ["--force", "--format", "json"])
        let after = try epub.epubs(in: first).mapValues { try Data(contentsOf: $0) }
        #expect(before == after)
        let report = try #require(try JSONDocument.decode(ValidationJSON.self, from: forced.stdout).build?.epubs)
        #expect(report.written == 3 && report.pagesAsBaseImage == ["PhotoPage": 8])
    }

    /// A class that does not build on SimplePage has no base image to show: the build fails,
    /// naming the page, instead of writing an EPUB with a page missing.
    @Test func aPageWithoutABaseImageFailsTheBuildNamingIt() async throws {
        let magazine = try epub.copyOfSample()
        try Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>NotePage</key>
                <dict>
                    <key>properties</key>
                    <dict><key>note</key><dict><key>type</key><string>string</string><key>required</key><true/></dict></dict>
                </dict>
            </dict>
            </plist>
            """.utf8
        ).write(to: magazine.appendingPathComponent("page-classes.plist"))
        let pages = magazine.appendingPathComponent("issues/a-3/pages.plist")
        let text = try String(contentsOf: pages, encoding: .utf8)
        let last = try #require(text.range(of: "<key>baseImage</key>\n                <string>4-0.png</string>"))
        try text.replacingCharacters(in: last, with: "<key>note</key>\n                <string>the end</string>")
            .replacingOccurrences(
                of:
                    "<string>SimplePage</string>\n            <key>properties</key>\n            <dict>\n                <key>note</key>",
                with:
                    "<string>NotePage</string>\n            <key>properties</key>\n            <dict>\n                <key>note</key>"
            )
            .write(to: pages, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: magazine.appendingPathComponent("issues/a-3/assets/4-0@2x.png"))
        let output = try Shell.temporaryFolder("epub").appendingPathComponent("out")
        let result = await InProcess.newsstand(
            ["build", magazine.path, "--output", output.path, "--feed", "epub"], environment: epub.epoch)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stderr.contains(
                "issue 'a-3': \(magazine.appendingPathComponent("issues/a-3/pages.plist").path): page 1 of article 4 cannot be an EPUB page: it has no baseImage, and an EPUB page shows a page's base image"
            ),
            "\(result.stderr)")
        let plain = await InProcess.newsstand(["build", magazine.path, "--output", output.path], environment: epub.epoch)
        #expect(plain.status == 0, "without --feed epub the page is fine: \(plain.stdout)\(plain.stderr)")
    }
}
