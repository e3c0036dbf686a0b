import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// How the catalogs carry `Access` and `ProductID`, read by Python's plistlib and json, not by our own
/// parser. What validation accepts is in `AccessTests`, in the fast tier.
@Suite(.tags(.needsTools)) struct AccessCatalogToolTests {
    let base = AccessTests()

    /// A paid issue's entry has `Access` and `ProductID`; a free one has neither `Access` nor
    /// anything it did not have before. shelf.json follows Baker: `product_id` only where the
    /// issue is sold.
    @Test func theCatalogsCarryAccessAndTheProduct() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2", "f-3"])
        try fixture.write(
            base.issueFile,
            base.issue("<key>Access</key><string>paid</string><key>ProductID</key><string>com.example.f1</string>"))
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
