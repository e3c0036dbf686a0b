import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// Every page-config rule, each with the one defect injected into a valid fixture.
@Suite struct PageConfigValidationTests {
    let pagesFile = "issues/f-1/pages.plist"

    /// The diagnostics of the default fixture with `old` replaced by `new` in its pages, and
    /// the line of each `⟦mark⟧` in the pages as written (`MagazineFixture.defaultPages`).
    private func diagnostics(replacing old: String, with new: String) throws -> (found: [Diagnostic], line: (String) -> Int) {
        let fixture = try MagazineFixture()
        let pages = MagazineFixture.defaultPages
        #expect(pages.contains(old))
        try fixture.write(pagesFile, pages.replacingOccurrences(of: old, with: new))
        let pagesFile = pagesFile
        return (fixture.validate(), { fixture.line(of: $0, in: pagesFile) })
    }

    @Test func validFixtureHasNoProblems() throws {
        #expect(try MagazineFixture(issues: ["f-1", "f-2"]).validate() == [])
    }

    @Test func unknownClassSuggestsTheNearestName() throws {
        let (found, line) = try diagnostics(replacing: "<string>PhotoPage</string>", with: "<string>PhotoPgae</string>")
        let d = try #require(found.with(.unknownPageClass).first)
        #expect(d.severity == .error)
        #expect(d.location == SourceLocation(file: pagesFile, line: line("page-2-class")))
        #expect(d.message.contains("'PhotoPgae' is unknown; did you mean 'PhotoPage'?"))
        // Which of the page's values are images cannot be known: none is "never referenced".
        #expect(found.count == 1, "\(found)")
    }

    @Test func aFileOnlyAnUnreadablePageNamesIsNotNeverReferencedButAStrayFileStillIs() throws {
        let fixture = try MagazineFixture()
        let pages = MagazineFixture.defaultPages
        try fixture.write(
            pagesFile,
            pages.replacingOccurrences(of: "<string>PhotoPage</string>", with: "<string>PhotoPgae</string>")
                .replacingOccurrences(of: "<key>class</key>\n            <string>SimplePage</string>", with: ""))
        try fixture.write("issues/f-1/assets/stray.png", "x")
        let found = fixture.validate()
        #expect(found.with(.unknownPageClass).count == 1)
        #expect(found.with(.pageClassMissing).count >= 1)
        #expect(found.with(.assetUnreferenced).map(\.location?.file) == ["issues/f-1/assets/stray.png"])
    }

    @Test func requiredPropertyMissing() throws {
        let (found, line) = try diagnostics(
            replacing: "<key>baseImage</key>\n                <string>1-0.png</string>", with: "")
        let d = try #require(found.with(.requiredPropertyMissing).first)
        #expect(d.location?.line == line("page-1-properties"))
        #expect(d.message.contains("'baseImage'"))
    }

    @Test func propertyOfTheWrongType() throws {
        let (found, line) = try diagnostics(replacing: "<string>1-0.png</string>", with: "<integer>7</integer>")
        let d = try #require(found.with(.propertyWrongType).first)
        #expect(d.location?.line == line("1-0"))
        #expect(d.message.contains("must be an image"))
        #expect(d.message.contains("found integer 7"))
    }

    @Test func unknownPropertyIsAWarningWithASuggestion() throws {
        let (found, line) = try diagnostics(
            replacing: "<key>baseImage</key>\n                <string>1-0.png</string>",
            with:
                "<key>baseImage</key>\n                <string>1-0.png</string>\n                <key>baseImgae</key>⟦unknown⟧\n                <string>x</string>"
        )
        let d = try #require(found.with(.unknownProperty).first)
        #expect(d.severity == .warning)
        #expect(d.location?.line == line("unknown"))
        #expect(d.message.contains("did you mean 'baseImage'?"))
        #expect(!found.hasErrors)
    }

    @Test func emptyPhotosArrayViolatesMinimumCount() throws {
        let fixture = try MagazineFixture()
        let pages = MagazineFixture.defaultPages
        let photos = try #require(
            pages.range(of: "<array>", range: pages.range(of: "<key>photos</key>")!.upperBound..<pages.endIndex))
        let end = try #require(pages.range(of: "</array>", range: photos.upperBound..<pages.endIndex))
        try fixture.write(pagesFile, pages.replacingCharacters(in: photos.lowerBound..<end.upperBound, with: "<array/>⟦photos⟧"))
        let d = try #require(fixture.validate().with(.arrayCount).first)
        #expect(d.location?.line == fixture.line(of: "photos", in: pagesFile))
        #expect(d.message.contains("at least 1"))
    }

    @Test func nestedRequiredPropertyIsNamedByItsPath() throws {
        let (found, line) = try diagnostics(
            replacing: "<key>thumbnail</key>\n                        <string>2-1t.png</string>", with: "")
        let d = try #require(found.with(.requiredPropertyMissing).first)
        #expect(d.message.contains("'photos[0].thumbnail'"))
        #expect(d.location?.line == line("photo-0"))
    }

    @Test func structureErrors() throws {
        let fixture = try MagazineFixture()
        try fixture.write(
            pagesFile,
            MagazineFixture.plist(
                """
                <array>
                    <array/>⟦NS-emptyArticle⟧
                    <string>not an article</string>⟦NS-articleNotArray⟧
                    <array>
                        <string>not a page</string>⟦NS-pageNotDict⟧
                        <dict>⟦NS-pageClassMissing⟧
                            <key>properties</key>
                            <dict/>
                        </dict>
                        <dict>⟦NS-pagePropertiesMissing⟧
                            <key>class</key>
                            <string>SimplePage</string>
                            <key>extra</key>⟦NS-unknownPageKey⟧
                            <true/>
                        </dict>
                    </array>
                </array>
                """))
        let found = fixture.validate()
        let line = { (mark: String) -> Int in fixture.line(of: "NS-\(mark)", in: pagesFile) }
        #expect(found.with(.emptyArticle).map(\.location?.line) == [line("emptyArticle")])
        #expect(found.with(.articleNotArray).map(\.location?.line) == [line("articleNotArray")])
        #expect(found.with(.pageNotDict).map(\.location?.line) == [line("pageNotDict")])
        #expect(found.with(.pageClassMissing).map(\.location?.line) == [line("pageClassMissing")])
        #expect(found.with(.pagePropertiesMissing).map(\.location?.line) == [line("pagePropertiesMissing")])
        #expect(found.with(.unknownPageKey).map(\.location?.line) == [line("unknownPageKey")])
    }

    @Test func rootMustBeAnArray() throws {
        let fixture = try MagazineFixture()
        try fixture.write(pagesFile, MagazineFixture.plist("<dict/>⟦root⟧"))
        #expect(fixture.validate().with(.pagesRootNotArray).map(\.location?.line) == [fixture.line(of: "root", in: pagesFile)])
    }

    @Test func malformedXMLKeepsLibxml2sMessageAndLine() throws {
        let fixture = try MagazineFixture()
        try fixture.write(pagesFile, MagazineFixture.plist("<array>\n    <array>\n    </dict>⟦mismatch⟧\n</array>"))
        let d = try #require(fixture.validate().with(.malformedXML).first)
        #expect(d.location?.file == pagesFile)
        #expect(d.location?.line == fixture.line(of: "mismatch", in: pagesFile))
        #expect(d.message.contains("mismatch"))
    }

    @Test func malformedPlistValues() throws {
        let fixture = try MagazineFixture()
        try fixture.write(
            pagesFile,
            MagazineFixture.plist(
                """
                <array>
                    <integer>twelve</integer>⟦integer⟧
                    <date>28.11.2013</date>⟦date⟧
                    <dict>
                        <key>lonely</key>⟦key⟧
                    </dict>
                    <widget/>⟦widget⟧
                </array>
                """))
        let lines = fixture.validate().with(.malformedPlist).compactMap(\.location?.line).sorted()
        #expect(lines == ["integer", "date", "key", "widget"].map { fixture.line(of: $0, in: pagesFile) })
    }

    @Test func missingFileIsReported() throws {
        let fixture = try MagazineFixture()
        try fixture.remove(pagesFile)
        #expect(fixture.validate().with(.fileMissing).map(\.location?.file) == [pagesFile])
    }

    /// A fixture whose first page is a `LinkPage` (a SimplePage with a `link` url) holding `link`.
    private func diagnostics(link: String) throws -> [Diagnostic] {
        let fixture = try MagazineFixture()
        try fixture.write(
            "page-classes.plist",
            MagazineFixture.plist(
                """
                <dict>
                    <key>LinkPage</key>
                    <dict>
                        <key>inherits</key><string>SimplePage</string>
                        <key>properties</key>
                        <dict><key>link</key><dict><key>type</key><string>url</string></dict></dict>
                    </dict>
                </dict>
                """))
        let pages = MagazineFixture.defaultPages
            .replacingOccurrences(of: "<string>SimplePage</string>", with: "<string>LinkPage</string>")
            .replacingOccurrences(
                of: "<string>1-0.png</string>",
                with: "<string>1-0.png</string>\n<key>link</key><string>\(Markup.escape(link))</string>")
        try fixture.write(pagesFile, pages)
        return fixture.validate()
    }

    /// A value with a line break quoted in a message is escaped, so the message stays one line
    /// whatever the output format (and cannot forge a diagnostic of its own).
    @Test func aQuotedValueWithALineBreakStaysOnOneLine() throws {
        let found = try diagnostics(link: "not a url\nissues/f-1/pages.plist:1: error: forged [NS-000]")
        let d = try #require(found.with(.propertyWrongType).first, "\(found)")
        #expect(!d.message.contains("\n"), "\(d.message)")
        #expect(d.message.contains("'not a url\\u{a}issues/f-1/pages.plist:1: error: forged [NS-000]'"), "\(d.message)")
    }

    /// A URL has no white space or control characters (RFC 3986); Foundation on Linux and newer
    /// Apple systems percent-encode them where older ones return nil, so they are refused.
    @Test func aURLWithALineBreakOrASpaceIsNotAURL() throws {
        for link in [
            "https://example.com/a\nb", "https://example.com/a b", "https://example.com/a\u{A0}b",
            "https://example.com/\u{202E}gnp.exe",
        ] {
            let found = try diagnostics(link: link)
            #expect(found.with(.propertyWrongType).count == 1, "\(link): \(found)")
        }
        #expect(try diagnostics(link: "https://example.com/a%20b?q=1#f").with(.propertyWrongType).isEmpty)
    }
}
