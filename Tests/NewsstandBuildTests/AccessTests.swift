import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// issue.plist's `Access` and `ProductID`: what validation accepts, and how the catalogs carry
/// them (the catalog read by Python's plistlib and json, not by our own parser: `AccessCatalogToolTests`).
@Suite struct AccessTests {
    let issueFile = "issues/f-1/issue.plist"

    /// issue.plist of f-1 with `extra` after the Summary (marks in `extra` name its lines: `MarkedText`).
    func issue(_ extra: String) -> String {
        MagazineFixture.plist(
            """
            <dict>
                <key>Title</key>
                <string>Issue f-1</string>
                <key>Date</key>
                <date>2026-01-01T08:00:00Z</date>
                <key>Cover</key>
                <string>cover.png</string>
                <key>Summary</key>
                <string>The f-1 issue.</string>
            \(extra)
            </dict>
            """)
    }

    private func diagnostics(_ extra: String) throws -> [Diagnostic] {
        let fixture = try MagazineFixture()
        try fixture.write(issueFile, issue(extra))
        return fixture.validate()
    }

    @Test func paidWithAProductValidatesAndPlansAsPaid() throws {
        let fixture = try MagazineFixture()
        try fixture.write(
            issueFile,
            issue("<key>Access</key><string>paid</string><key>ProductID</key><string>com.example.mag.f-1_2026</string>"))
        #expect(fixture.validate().isEmpty)
        let (_, plans) = try fixture.plans()
        #expect(plans.first?.metadata.access == .paid)
        #expect(plans.first?.metadata.productID == "com.example.mag.f-1_2026")
        // Paid without a product (a subscription or a login sells it) is fine too.
        try fixture.write(issueFile, issue("<key>Access</key><string>paid</string>"))
        #expect(fixture.validate().isEmpty)
    }

    @Test func anAccessOtherThanFreeOrPaidIsAnErrorOnItsLine() throws {
        let paid = "    <key>Access</key>\n    <string>Paid</string>⟦access⟧"
        let misspelt = try diagnostics(paid)
        let d = try #require(misspelt.with(.issueAccess).first)
        #expect(d.location == SourceLocation(file: issueFile, line: MarkedText(issue(paid)).line(of: "access")))
        #expect(d.severity == .error)
        #expect(d.message == "Access 'Paid' is not 'free' or 'paid'; did you mean 'paid'?")
        #expect(try diagnostics("<key>Access</key><string>premium</string>").with(.issueAccess).count == 1)
        #expect(try diagnostics("<key>Access</key><string></string>").with(.issueAccess).count == 1)
        let boolean = "    <key>Access</key>\n    <true/>⟦access⟧"
        let wrongType = try diagnostics(boolean)
        #expect(wrongType.with(.issueKeyWrongType).map(\.location?.line) == [MarkedText(issue(boolean)).line(of: "access")])
        #expect(wrongType.with(.issueUnknownKey).isEmpty)
    }

    @Test func aProductIDMustBeAStoreIdentifier() throws {
        for bad in ["com.example/f 1", "", "f1✓", String(repeating: "a", count: 101), "com.example.f1\n"] {
            let found = try diagnostics("<key>Access</key><string>paid</string><key>ProductID</key><string>\(bad)</string>")
            #expect(found.with(.issueAccess).count == 1, "\(bad.debugDescription)")
        }
        let longest = try diagnostics(
            "<key>Access</key><string>paid</string><key>ProductID</key><string>\(String(repeating: "A-9._", count: 20))</string>")
        #expect(longest.isEmpty)
    }

    @Test func aFreeIssueWithAProductIDIsWarnedAbout() throws {
        for extra in [
            "<key>ProductID</key><string>com.example.f1</string>",
            "<key>Access</key><string>free</string><key>ProductID</key><string>com.example.f1</string>",
        ] {
            let found = try diagnostics(extra)
            let d = try #require(found.with(.freeIssueProductID).first)
            #expect(d.severity == .warning)
            #expect(d.message.contains("its content is public"))
            #expect(found.filter { $0.code != .freeIssueProductID }.isEmpty)
        }
    }

}
