import Foundation
import Testing

@testable import NewsstandCore

/// `CatalogXML` writes the bytes `PropertyListSerialization` writes for the same catalog, and
/// leaves to it what it does not vouch for.
struct CatalogXMLTests {
    private static func serialized(_ entries: [CatalogEntry]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: entries.map(\.propertyList), format: .xml, options: 0)
    }

    private static func entry(_ index: Int, title: String, summary: String? = nil, paid: Bool = false) -> CatalogEntry {
        var entry = CatalogEntry(
            name: "issue-\(index)", title: title, date: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 86_400),
            cover: "https://example.com/m/issue-\(index)/cover.png", content: "https://example.com/m/issue-\(index)/a.zip")
        entry.summary = summary
        entry.access = paid ? .paid : .free
        entry.productID = paid ? "com.example.issue\(index)" : nil
        entry.contentSize = 1_234_567 * index
        entry.contentSHA256 = String(repeating: "ab", count: 32)
        entry.retinaContentSize = Int(Int32.max) + index
        entry.retinaContentSHA256 = String(repeating: "cd", count: 32)
        entry.coverSHA256 = String(repeating: "0f", count: 32)
        entry.contentIndex = "https://example.com/m/issue-\(index)/a.index.json"
        entry.contentIndexSize = 0
        return entry
    }

    @Test func writesWhatTheSerializerWrites() throws {
        var printable = ""
        for value in 0x20...0x7E { printable.append(Character(Unicode.Scalar(value)!)) }
        let entries = [
            Self.entry(1, title: "Plain"),
            Self.entry(2, title: "Tom & Jerry <3> \"quoted\" 'single'", summary: printable, paid: true),
            Self.entry(3, title: "Привет 🎉 é\u{301} ﬁ", summary: "tab\there\nline\r\nend"),
            Self.entry(4, title: "x", summary: "&amp; is already escaped?"),
        ]
        let ours = try #require(CatalogXML.encode(entries.map(\.plist)))
        #expect(ours == (try Self.serialized(entries)))
        #expect(Catalog.encode(entries) == (try Self.serialized(Catalog.sorted(entries))))
    }

    @Test func writesAnEmptyCatalogAsTheSerializerDoes() throws {
        #expect(CatalogXML.encode([]) == (try Self.serialized([])))
    }

    @Test func leavesToTheSerializerWhatItDoesNotVouchFor() throws {
        var control = Self.entry(1, title: "bell \u{07}")
        #expect(CatalogXML.encode([control.plist]) == nil)
        control.title = "delete \u{7F}"
        #expect(CatalogXML.encode([control.plist]) == nil)
        var fraction = Self.entry(2, title: "t")
        fraction.date = Date(timeIntervalSince1970: 1_700_000_000.5)
        #expect(CatalogXML.encode([fraction.plist]) == nil)
        #expect(CatalogXML.encode([["Real": .real(1.5)]]) == nil)
        // Catalog.encode still writes them, through the serializer.
        #expect(Catalog.encode([fraction]) == (try Self.serialized([fraction])))
    }
}
