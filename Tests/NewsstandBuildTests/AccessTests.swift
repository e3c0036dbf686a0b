import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// issue.plist's `Access` and `ProductID`: what validation accepts, and how the catalogs carry
/// them (the catalog read by Python's plistlib and json, not by our own parser).
@Suite(.tags(.needsTools)) struct AccessTests {
    let issueFile = "issues/f-1/issue.plist"

    /// issue.plist of f-1 with `extra` after the Summary (marks in `extra` name its lines: `MarkedText`).
    private func issue(_ extra: String) -> String {
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

    /// A paid issue's entry has `Access` and `ProductID`; a free one has neither `Access` nor
    /// anything it did not have before. shelf.json follows Baker: `product_id` only where the
    /// issue is sold.
    @Test func theCatalogsCarryAccessAndTheProduct() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2", "f-3"])
        try fixture.write(
            issueFile, issue("<key>Access</key><string>paid</string><key>ProductID</key><string>com.example.f1</string>"))
        try fixture.write(
            "issues/f-2/issue.plist",
            try String(contentsOf: fixture.url("issues/f-2/issue.plist"), encoding: .utf8).replacingOccurrences(
                of: "</dict>", with: "<key>ProductID</key><string>com.example.f2</string></dict>"))
        let output = try Shell.temporaryFolder()
        let (magazine, plans) = try fixture.plans()
        _ = try MagazineBuilder(
            magazine: magazine, options: BuildOptions(output: output, jobs: 1, feeds: [.shelf], versioned: false)
        )
        .build(plans)
        let read = try Shell.python(
            """
            import json, plistlib, sys
            for entry in plistlib.load(open(sys.argv[1], 'rb')):
                print(entry['Name'], entry.get('Access', '-'), entry.get('ProductID', '-'), len(entry))
            for item in json.load(open(sys.argv[2])):
                print(item['name'], item.get('product_id', '-'))
            """, [output.appendingPathComponent("issues.plist").path, output.appendingPathComponent("shelf.json").path])
        #expect(read.status == 0)
        // 5 seed keys, Summary, 4 sizes and digests of bundles, 2 of covers, 5 of indexes: 17;
        // a product adds one, Access another.
        #expect(
            read.stdout == """
                f-3 - - 17
                f-2 - com.example.f2 18
                f-1 paid com.example.f1 19
                f-3 -
                f-2 -
                f-1 com.example.f1

                """)
        let entries = try Catalog.decode(Data(contentsOf: output.appendingPathComponent("issues.plist"))).entries
        #expect(entries.map(\.access) == [.free, .free, .paid])
    }
}
