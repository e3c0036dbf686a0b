import Foundation
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

@Suite struct PlistReaderTests {
    @Test func keepsLinesOfEveryNode() throws {
        let xml = MarkedText(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>⟦root⟧
                <key>name</key>⟦name-key⟧
                <string>лето &amp; осень</string>⟦name⟧
                <key>list</key>
                <array>
                    <integer>-0x10</integer>⟦0⟧
                    <real>1.5</real>⟦1⟧
                    <true/>⟦2⟧
                    <data>aGk=</data>⟦3⟧
                </array>
            </dict>
            </plist>
            """)
        let root = try PlistReader.read(data: Data(xml.text.utf8), displayPath: "x.plist")
        #expect(root.line == xml.line(of: "root"))
        #expect(root["name"]?.string == "лето & осень")
        #expect(root.entry("name")?.keyLine == xml.line(of: "name-key"))
        #expect(root["name"]?.line == xml.line(of: "name"))
        let list = try #require(root["list"]?.array)
        #expect(list.map(\.line) == ["0", "1", "2", "3"].map(xml.line(of:)))
        #expect(list.map(\.value) == [.integer(-16), .real(1.5), .boolean(true), .data(Data("hi".utf8))])
    }

    @Test func malformedXMLReportsLibxml2sMessageLineAndColumn() {
        let xml = MarkedText("<plist>\n<dict>\n<key>a</key>\n<string>b</strin>⟦mismatch⟧\n</dict>\n</plist>\n")
        #expect {
            _ = try PlistReader.read(data: Data(xml.text.utf8), displayPath: "x.plist")
        } throws: { error in
            guard let failure = error as? PlistReadFailure, let d = failure.diagnostics.first else { return false }
            return d.code == .malformedXML && d.location?.line == xml.line(of: "mismatch") && d.location?.column != nil
                && d.message.contains("mismatch")
        }
    }

    @Test func binaryPlistsAreReadToo() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["a": [1, "b"]], format: .binary, options: 0)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).plist")
        try data.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let root = try PlistReader.read(contentsOf: url, displayPath: "b.plist")
        #expect(root["a"]?.array?.map(\.value) == [.integer(1), .string("b")])
    }

    @Test func veryLongFilesKeepTheirLines() throws {
        var xml = "<plist><array>\n"
        for _ in 0..<70_000 { xml += "<true/>\n" }
        xml += "<string>last</string>\n</array></plist>\n"
        let root = try PlistReader.read(data: Data(xml.utf8), displayPath: "big.plist")
        #expect(root.array?.last?.line == 70_002)
    }
}

/// The one escaping for XML and HTML, and the one "did you mean".
@Suite struct SharedRulesTests {
    @Test func markupEscapesForContentAndAttributes() {
        #expect(Markup.escape("a & <b> \"c\" 'd'\r\nлето") == "a &amp; &lt;b&gt; &quot;c&quot; &#39;d&#39;&#13;\nлето")
        #expect(Markup.isXMLCharacter("\u{9}") && !Markup.isXMLCharacter("\u{0}") && !Markup.isXMLCharacter("\u{FFFE}"))
    }

    @Test func suggestionsNameANearMissOnly() {
        #expect(Suggestion.hint(for: "PhotoPgae", among: ["SimplePage", "PhotoPage"]) == "; did you mean 'PhotoPage'?")
        #expect(Suggestion.hint(for: "Zebra", among: ["SimplePage", "PhotoPage"]) == "")
        #expect(Suggestion.closest(to: "--ouput", among: ["--output", "--issue"]) == "--output")
    }
}
