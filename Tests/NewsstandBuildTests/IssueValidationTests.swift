import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import Testing

/// issue.plist, magazine.plist and issue names.
@Suite struct IssueValidationTests {
    let issueFile = "issues/f-1/issue.plist"

    /// The diagnostics with issue.plist's body replaced, and the line of each `⟦mark⟧` in it.
    private func diagnostics(issue body: String) throws -> (found: [Diagnostic], line: (String) -> Int) {
        let fixture = try MagazineFixture()
        try fixture.write(issueFile, MagazineFixture.plist(body))
        let issueFile = issueFile
        return (fixture.validate(), { fixture.line(of: $0, in: issueFile) })
    }

    @Test func missingAndWrongTypedKeys() throws {
        let (found, line) = try diagnostics(
            issue: """
                <dict>⟦cover⟧
                    <key>Title</key>
                    <integer>3</integer>⟦title⟧
                    <key>Date</key>
                    <string>2013-11-28</string>⟦date⟧
                    <key>Name</key>
                    <string>f-2</string>⟦name⟧
                    <key>Summary</key>
                    <true/>⟦summary⟧
                    <key>Colour</key>
                    <string>red</string>
                </dict>
                """)
        #expect(found.with(.issueTitle).map(\.location?.line) == [line("title")])
        #expect(found.with(.issueDate).map(\.location?.line) == [line("date")])
        #expect(found.with(.issueCover).map(\.location?.line) == [line("cover")])
        #expect(found.with(.issueNameMismatch).map(\.location?.line) == [line("name")])
        #expect(found.with(.issueKeyWrongType).map(\.location?.line) == [line("summary")])
        #expect(found.with(.issueUnknownKey).map(\.severity) == [.warning])
    }

    @Test func coverMissingInEitherSize() throws {
        let fixture = try MagazineFixture()
        try fixture.remove("issues/f-1/assets/cover@2x.png")
        let d = try #require(fixture.validate().with(.retinaMissing).first)
        #expect(d.location == SourceLocation(file: issueFile, line: fixture.line(of: "cover", in: issueFile)))
    }

    @Test func unsafeIssueName() throws {
        let fixture = try MagazineFixture(issues: ["f 1"])
        let d = try #require(fixture.validate().with(.issueNameUnsafe).first)
        #expect(d.location?.file == "issues/f 1")
    }

    @Test func issueNamesDifferingOnlyInCase() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "F-1"])
        #expect(fixture.validate().with(.issueNameDuplicate).count == 1)
    }

    @Test func baseURLMustBeAbsoluteHTTP() throws {
        let fixture = try MagazineFixture()
        try fixture.write(
            "magazine.plist",
            MagazineFixture.plist(
                """
                <dict>
                    <key>Title</key>
                    <string>Fixture</string>
                    <key>BaseURL</key>
                    <string>ftp://example.com/</string>⟦base-url⟧
                </dict>
                """))
        let d = try #require(fixture.validate().with(.magazineBaseURL).first)
        #expect(d.location == SourceLocation(file: "magazine.plist", line: fixture.line(of: "base-url", in: "magazine.plist")))
        #expect(d.message.contains("'ftp://example.com/'"))
    }

    @Test func unknownIssueOnTheCommandLine() throws {
        let fixture = try MagazineFixture()
        let d = try #require(fixture.validate(issues: ["f-11"]).with(.issueNotFound).first)
        #expect(d.message.contains("did you mean 'f-1'?"))
    }

    @Test func everyProblemIsReportedInOneRun() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        // Both sizes: a @2x master alone is derived from (DerivedImageTests).
        try fixture.remove("issues/f-1/assets/1-0.png")
        try fixture.remove("issues/f-1/assets/1-0@2x.png")
        try fixture.write(
            "issues/f-2/pages.plist", MagazineFixture.defaultPages.replacingOccurrences(of: "SimplePage", with: "SimplePag"))
        try fixture.remove("issues/f-2/assets/cover.png")
        try fixture.remove("issues/f-2/assets/cover@2x.png")
        let codes = Set(fixture.validate().map(\.code))
        #expect(codes.isSuperset(of: [.assetMissing, .unknownPageClass, .assetMissing]))
        #expect(fixture.validate().filter { $0.severity == .error }.count >= 3)
    }
}
