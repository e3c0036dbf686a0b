import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import Testing

/// Every page-config rule, each with the one defect injected into a valid fixture.
@Suite struct PageConfigValidationTests {
    let pagesFile = "issues/f-1/pages.plist"

    private func diagnostics(replacing old: String, with new: String) throws -> [Diagnostic] {
        let fixture = try MagazineFixture()
        let pages = MagazineFixture.defaultPages
        #expect(pages.contains(old))
        try fixture.write(pagesFile, pages.replacingOccurrences(of: old, with: new))
        return fixture.validate()
    }

    @Test func validFixtureHasNoProblems() throws {
        #expect(try MagazineFixture(issues: ["f-1", "f-2"]).validate() == [])
    }

    @Test func unknownClassSuggestsTheNearestName() throws {
        let found = try diagnostics(replacing: "<string>PhotoPage</string>", with: "<string>PhotoPgae</string>")
        let d = try #require(found.with(.unknownPageClass).first)
        #expect(d.severity == .error)
        #expect(d.location == SourceLocation(file: pagesFile, line: 19))
        #expect(d.message.contains("'PhotoPgae' is unknown; did you mean 'PhotoPage'?"))
        #expect(found.count == 1 + found.with(.assetUnreferenced).count)
    }

    @Test func requiredPropertyMissing() throws {
        let found = try diagnostics(
            replacing: "<key>baseImage</key>\n                <string>1-0.png</string>", with: "")
        let d = try #require(found.with(.requiredPropertyMissing).first)
        #expect(d.location?.line == 10)
        #expect(d.message.contains("'baseImage'"))
    }

    @Test func propertyOfTheWrongType() throws {
        let found = try diagnostics(replacing: "<string>1-0.png</string>", with: "<integer>7</integer>")
        let d = try #require(found.with(.propertyWrongType).first)
        #expect(d.location?.line == 12)
        #expect(d.message.contains("must be an image"))
        #expect(d.message.contains("found integer 7"))
    }

    @Test func unknownPropertyIsAWarningWithASuggestion() throws {
        let found = try diagnostics(
            replacing: "<key>baseImage</key>\n                <string>1-0.png</string>",
            with:
                "<key>baseImage</key>\n                <string>1-0.png</string>\n                <key>baseImgae</key>\n                <string>x</string>"
        )
        let d = try #require(found.with(.unknownProperty).first)
        #expect(d.severity == .warning)
        #expect(d.location?.line == 13)
        #expect(d.message.contains("did you mean 'baseImage'?"))
        #expect(!found.hasErrors)
    }

    @Test func emptyPhotosArrayViolatesMinimumCount() throws {
        let fixture = try MagazineFixture()
        let pages = MagazineFixture.defaultPages
        let photos = try #require(
            pages.range(of: "<array>", range: pages.range(of: "<key>photos</key>")!.upperBound..<pages.endIndex))
        let end = try #require(pages.range(of: "</array>", range: photos.upperBound..<pages.endIndex))
        try fixture.write(pagesFile, pages.replacingCharacters(in: photos.lowerBound..<end.upperBound, with: "<array/>"))
        let d = try #require(fixture.validate().with(.arrayCount).first)
        #expect(d.location?.line == 25)
        #expect(d.message.contains("at least 1"))
    }

    @Test func nestedRequiredPropertyIsNamedByItsPath() throws {
        let found = try diagnostics(
            replacing: "<key>thumbnail</key>\n                        <string>2-1t.png</string>", with: "")
        let d = try #require(found.with(.requiredPropertyMissing).first)
        #expect(d.message.contains("'photos[0].thumbnail'"))
        #expect(d.location?.line == 26)
    }

    @Test func structureErrors() throws {
        let fixture = try MagazineFixture()
        try fixture.write(
            pagesFile,
            MagazineFixture.plist(
                """
                <array>
                    <array/>
                    <string>not an article</string>
                    <array>
                        <string>not a page</string>
                        <dict>
                            <key>properties</key>
                            <dict/>
                        </dict>
                        <dict>
                            <key>class</key>
                            <string>SimplePage</string>
                            <key>extra</key>
                            <true/>
                        </dict>
                    </array>
                </array>
                """))
        let found = fixture.validate()
        #expect(found.with(.emptyArticle).map(\.location?.line) == [5])
        #expect(found.with(.articleNotArray).map(\.location?.line) == [6])
        #expect(found.with(.pageNotDict).map(\.location?.line) == [8])
        #expect(found.with(.pageClassMissing).map(\.location?.line) == [9])
        #expect(found.with(.pagePropertiesMissing).map(\.location?.line) == [13])
        #expect(found.with(.unknownPageKey).map(\.location?.line) == [16])
    }

    @Test func rootMustBeAnArray() throws {
        let fixture = try MagazineFixture()
        try fixture.write(pagesFile, MagazineFixture.plist("<dict/>"))
        #expect(fixture.validate().with(.pagesRootNotArray).map(\.location?.line) == [4])
    }

    @Test func malformedXMLKeepsLibxml2sMessageAndLine() throws {
        let fixture = try MagazineFixture()
        try fixture.write(pagesFile, MagazineFixture.plist("<array>\n    <array>\n    </dict>\n</array>"))
        let d = try #require(fixture.validate().with(.malformedXML).first)
        #expect(d.location?.file == pagesFile)
        #expect(d.location?.line == 6)
        #expect(d.message.contains("mismatch"))
    }

    @Test func malformedPlistValues() throws {
        let fixture = try MagazineFixture()
        try fixture.write(
            pagesFile,
            MagazineFixture.plist(
                """
                <array>
                    <integer>twelve</integer>
                    <date>28.11.2013</date>
                    <dict>
                        <key>lonely</key>
                    </dict>
                    <widget/>
                </array>
                """))
        let lines = fixture.validate().with(.malformedPlist).compactMap(\.location?.line).sorted()
        #expect(lines == [5, 6, 8, 10])
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
                of: "<string>1-0.png</string>", with: "<string>1-0.png</string>\n<key>link</key><string>\(Markup.escape(link))</string>")
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
        for link in ["https://example.com/a\nb", "https://example.com/a b", "https://example.com/a\u{A0}b", "https://example.com/\u{202E}gnp.exe"] {
            let found = try diagnostics(link: link)
            #expect(found.with(.propertyWrongType).count == 1, "\(link): \(found)")
        }
        #expect(try diagnostics(link: "https://example.com/a%20b?q=1#f").with(.propertyWrongType).isEmpty)
    }
}
