import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat
import NewsstandPreview
import NewsstandTestSupport
import Testing

/// Magazines to preview and the in-process run of validation and `PreviewWriter`.
enum PreviewFixtures {
    static let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora")
    static let templates = Shell.repositoryRoot.appendingPathComponent("templates/preview")
    static let builtInSchema = Shell.repositoryRoot.appendingPathComponent("templates/page-classes.plist")

    /// Validates `magazine` as `build` does, failing the test on errors, and writes its preview.
    static func preview(_ magazine: URL, into output: URL? = nil) throws -> (PreviewWriter.Report, URL) {
        let output = try output ?? Shell.temporaryFolder("preview").appendingPathComponent("web")
        let opening = MagazineValidator(folder: magazine, builtInSchema: builtInSchema).open()
        #expect(!opening.diagnostics.hasErrors, "\(opening.diagnostics.map(\.message))")
        var plans: [IssuePlan] = []
        for name in opening.issueNames {
            let result = IssueValidator.validate(issue: name, in: opening.magazine)
            #expect(!result.diagnostics.hasErrors, "\(name): \(result.diagnostics.map(\.message))")
            if let plan = result.plan { plans.append(plan) }
        }
        let report = try PreviewWriter(magazine: opening.magazine, output: output, templates: templates).write(plans)
        return (report, output)
    }

    /// The sample with a page class of the magazine's own (`QuotePage`, from its
    /// page-classes.plist), user text that needs escaping and a cover whose name has a space.
    static func customMagazine() throws -> URL {
        let folder = try Shell.temporaryFolder("preview-fixture").appendingPathComponent("mag")
        try FileManager.default.copyItem(at: sample, to: folder)
        try write(
            folder, "page-classes.plist",
            plist(
                """
                <dict>
                    <key>QuotePage</key>
                    <dict>
                        <key>inherits</key><string>SimplePage</string>
                        <key>description</key><string>A pull quote with portraits.</string>
                        <key>properties</key>
                        <dict>
                            <key>quote</key><dict><key>type</key><string>string</string><key>required</key><true/></dict>
                            <key>rating</key><dict><key>type</key><string>number</string></dict>
                            <key>featured</key><dict><key>type</key><string>boolean</string></dict>
                            <key>link</key><dict><key>type</key><string>url</string></dict>
                            <key>trap</key><dict><key>type</key><string>url</string></dict>
                            <key>portraits</key>
                            <dict>
                                <key>type</key><string>array</string>
                                <key>items</key>
                                <dict>
                                    <key>type</key><string>dict</string>
                                    <key>properties</key>
                                    <dict>
                                        <key>image</key><dict><key>type</key><string>image</string><key>required</key><true/></dict>
                                        <key>credit</key><dict><key>type</key><string>string</string></dict>
                                    </dict>
                                </dict>
                            </dict>
                        </dict>
                    </dict>
                </dict>
                """))
        let issue = folder.appendingPathComponent("issues/a-1")
        try write(
            issue, "issue.plist",
            plist(
                """
                <dict>
                    <key>Title</key><string>&lt;script&gt;alert("t")&lt;/script&gt; Spring &amp; Co</string>
                    <key>Date</key><date>2026-03-01T08:00:00Z</date>
                    <key>Cover</key><string>cover art.png</string>
                    <key>Summary</key><string>Summary with &lt;i&gt;tags&lt;/i&gt; &amp; 'quotes'</string>
                </dict>
                """))
        let assets = issue.appendingPathComponent("assets")
        try FileManager.default.moveItem(
            at: assets.appendingPathComponent("cover.png"), to: assets.appendingPathComponent("cover art.png"))
        try FileManager.default.moveItem(
            at: assets.appendingPathComponent("cover@2x.png"), to: assets.appendingPathComponent("cover art@2x.png"))
        try write(
            issue, "pages.plist",
            plist(
                """
                <array>
                    <array>
                        <dict>
                            <key>class</key><string>SimplePage</string>
                            <key>properties</key><dict><key>baseImage</key><string>1-0.png</string></dict>
                        </dict>
                    </array>
                    <array>
                        <dict>
                            <key>class</key><string>QuotePage</string>
                            <key>properties</key>
                            <dict>
                                <key>baseImage</key><string>2-0.png</string>
                                <key>quote</key><string>&lt;b&gt;Dark&lt;/b&gt; skies &amp; "quiet" nights</string>
                                <key>rating</key><integer>5</integer>
                                <key>featured</key><true/>
                                <key>link</key><string>https://example.com/?a=1&amp;b=2</string>
                                <key>trap</key><string>javascript:alert(1)</string>
                                <key>portraits</key>
                                <array>
                                    <dict>
                                        <key>image</key><string>2-1-p1.png</string>
                                        <key>credit</key><string>K. Berg</string>
                                    </dict>
                                </array>
                            </dict>
                        </dict>
                    </array>
                </array>
                """))
        return folder
    }

    private static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        \(body)
        </plist>

        """
    }

    private static func write(_ folder: URL, _ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: folder.appendingPathComponent(name))
    }

    static func read(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }

    /// Every relative `src`, `href` and `srcset` URL in an HTML file (external links left out).
    static func localLinks(in html: String) throws -> [String] {
        var links: [String] = []
        let pattern = try NSRegularExpression(pattern: #"(src|href|srcset|data-srcset)="([^"]*)""#)
        for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
            let attribute = String(html[Range(match.range(at: 1), in: html)!])
            let value = String(html[Range(match.range(at: 2), in: html)!]).replacingOccurrences(of: "&amp;", with: "&")
            let urls =
                attribute.hasSuffix("srcset")
                ? value.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) } : [value]
            links += urls.filter { !$0.contains(":") && !$0.hasPrefix("#") }
        }
        return links
    }
}
