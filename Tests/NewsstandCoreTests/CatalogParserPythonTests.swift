import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// The streaming catalog parser reads a catalog written by Python's plistlib, with comments, CDATA
/// and character references added, as Foundation reads it. The rest of the parser's rules are in
/// `CatalogParserTests`, in the fast tier.
@Suite("Catalog parser on plistlib's output", .tags(.needsTools)) struct CatalogParserPythonTests {
    /// A catalog written by Python's plistlib, with what hand-edited catalogs contain:
    /// comments, CDATA, character references, an unknown extra key holding nested values, an
    /// entry that is not a dictionary and one without a required key.
    @Test func readsCommentsCDATAReferencesAndBadEntriesAsFoundationDoes() throws {
        let written = try Shell.python(
            """
            import plistlib, sys, datetime
            entries = [
                {"Name": "n-1", "Title": "T & <1>", "Date": datetime.datetime(2020, 5, 1, 8, 0, 0),
                 "Cover": "http://h/c.png", "Content": "http://h/n-1.zip", "ContentSize": 12,
                 "Extra": {"list": [1, 2.5, True, b"bytes", {"deep": ["x"]}]}},
                "not a dictionary",
                {"Name": "n-2", "Title": "No date", "Cover": "c", "Content": "z"},
            ]
            sys.stdout.write(plistlib.dumps(entries).decode())
            """)
        var xml = written.stdout
        xml = xml.replacingOccurrences(of: "<string>T &amp; &lt;1&gt;</string>", with: "<string>T &#38; <![CDATA[<1>]]></string>")
        xml = xml.replacingOccurrences(of: "<array>\n\t<dict>", with: "<array>\n<!-- issues -->\n\t<dict>")
        #expect(xml.contains("CDATA") && xml.contains("<!-- issues -->"))
        let data = Data(xml.utf8)
        let foundation = try CatalogParserTests.foundation(data)
        for chunk in [1, 3, 1 << 20] {
            let streamed = try CatalogParserTests.parse(data, chunk: chunk)
            #expect(streamed.entries == foundation.entries)
            #expect(streamed.problems == foundation.problems)
        }
        #expect(foundation.entries.map(\.title) == ["T & <1>"])
        #expect(foundation.problems.count == 2)
    }
}
