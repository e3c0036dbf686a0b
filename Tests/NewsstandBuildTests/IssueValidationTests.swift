import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import Testing

/// issue.plist, magazine.plist and issue names.
@Suite struct IssueValidationTests {
    let issueFile = "issues/f-1/issue.plist"

    private func diagnostics(issue body: String) throws -> [Diagnostic] {
        let fixture = try MagazineFixture()
        try fixture.write(issueFile, MagazineFixture.plist(body))
        return fixture.validate()
    }

    @Test func missingAndWrongTypedKeys() throws {
        let found = try diagnostics(
            issue: """
                <dict>
                    <key>Title</key>
                    <integer>3</integer>
                    <key>Date</key>
                    <string>2013-11-28</string>
                    <key>Name</key>
                    <string>f-2</string>
                    <key>Summary</key>
                    <true/>
                    <key>Colour</key>
                    <string>red</string>
                </dict>
                """)
        #expect(found.with(.issueTitle).map(\.location?.line) == [6])
        #expect(found.with(.issueDate).map(\.location?.line) == [8])
        #expect(found.with(.issueCover).map(\.location?.line) == [4])
        #expect(found.with(.issueNameMismatch).map(\.location?.line) == [10])
        #expect(found.with(.issueKeyWrongType).map(\.location?.line) == [12])
        #expect(found.with(.issueUnknownKey).map(\.severity) == [.warning])
    }

    @Test func coverMissingInEitherSize() throws {
        let fixture = try MagazineFixture()
        try fixture.remove("issues/f-1/assets/cover@2x.png")
        let d = try #require(fixture.validate().with(.retinaMissing).first)
        #expect(d.location == SourceLocation(file: issueFile, line: 10))
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
                    <string>ftp://example.com/</string>
                </dict>
                """))
        let d = try #require(fixture.validate().with(.magazineBaseURL).first)
        #expect(d.location == SourceLocation(file: "magazine.plist", line: 8))
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
