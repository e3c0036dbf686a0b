import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// The streaming catalog parser reads what Foundation reads, the same way, whatever the chunks
/// the network cuts the body into; and refuses what is not an XML property list.
@Suite("Catalog parser") struct CatalogParserTests {
    static func parse(_ data: Data, chunk: Int) throws(CatalogError) -> (entries: [CatalogEntry], problems: [CatalogError]) {
        var parser = CatalogStreamParser()
        var start = 0
        while start < data.count {
            let end = min(data.count, start + chunk)
            let failure: CatalogError? = data[start..<end].withUnsafeBytes { bytes in
                do throws(CatalogError) {
                    try parser.consume(bytes)
                    return nil
                } catch {
                    return error
                }
            }
            if let failure { throw failure }
            start = end
        }
        return try parser.finish()
    }

    /// The catalog as Foundation reads it (`PropertyListSerialization`), taken into entries by
    /// `CatalogEntry`'s rules: the reference the streaming parser must agree with.
    static func foundation(_ data: Data) throws -> (entries: [CatalogEntry], problems: [CatalogError]) {
        let object = try PropertyListSerialization.propertyList(from: data, format: nil)
        guard let items = PlistValue(foundationObject: object)?.array else {
            throw CatalogError.malformed(reason: "the root is not an array")
        }
        var entries: [CatalogEntry] = []
        var problems: [CatalogError] = []
        for item in items {
            guard let dictionary = item.dictionary else {
                problems.append(.badEntry(name: nil, reason: "an entry is not a dictionary"))
                continue
            }
            do { entries.append(try CatalogEntry(plist: dictionary)) } catch { problems.append(error) }
        }
        return (entries, problems)
    }

    static func entries() -> [CatalogEntry] {
        var full = CatalogEntry(
            name: "a-1", title: "лето/осень 2013 <&> \"quoted\" 'single'", date: Date(timeIntervalSince1970: 1_385_625_600),
            cover: "https://example.com/a-1/cover.png", content: "https://example.com/a-1/a-1.zip")
        full.summary = "Line one\nline two\ttabbed ]]> end"
        full.productID = "com.example.a1"
        full.contentSize = 310_000
        full.contentSHA256 = String(repeating: "ab", count: 32)
        full.retinaContentSize = 9_000_000_000
        full.retinaContentSHA256 = String(repeating: "cd", count: 32)
        full.coverSHA256 = String(repeating: "01", count: 32)
        full.retinaCoverSHA256 = String(repeating: "23", count: 32)
        let plain = CatalogEntry(
            name: "a-2", title: "Plain", date: Date(timeIntervalSince1970: 1_400_000_000), cover: "c.png", content: "a-2.zip")
        return [full, plain]
    }

    @Test(arguments: [1, 7, 4096])
    func readsWhatTheBuildWritesAsFoundationDoes(chunk: Int) throws {
        let data = Catalog.encode(Self.entries())
        let streamed = try Self.parse(data, chunk: chunk)
        let foundation = try Self.foundation(data)
        #expect(streamed.entries == foundation.entries)
        #expect(streamed.problems == foundation.problems)
        #expect(streamed.entries == Catalog.sorted(Self.entries()))
    }

    @Test func refusesWhatIsNotAnXMLPropertyList() throws {
        let binary = try PropertyListSerialization.data(
            fromPropertyList: Self.entries().map(\.propertyList), format: .binary, options: 0)
        #expect(throws: CatalogError.malformed(reason: "a binary property list; catalogs are read as XML property lists only")) {
            try Self.parse(binary, chunk: 4096)
        }
        let cases: [(String, String)] = [
            ("", "not a property list: no root value (at byte 0)"),
            ("<plist><array><dict>", "not a property list: the catalog ends before its root value does (at byte 20)"),
            ("<plist><dict/></plist>", "the root is not an array"),
            ("<plist><array>x</array></plist>", "not a property list: text outside a value (at byte 14)"),
            ("<plist><array><script/></array></plist>", "not a property list: an unknown element <script> (at byte 22)"),
            ("<plist><array><string>a</integer></array></plist>", "not a property list: </integer> closes <string> (at byte 32)"),
            (
                "<!DOCTYPE plist [<!ENTITY e \"v\">]><plist><array/></plist>",
                "not a property list: a DOCTYPE with an internal subset (entity declarations are not allowed) (at byte 31)"
            ),
            ("<plist><array><string>&e;</string></array></plist>", "not a property list: an unknown entity '&e;' (at byte 24)"),
            ("<plist><array/><array/></plist>", "not a property list: a second root value (at byte 22)"),
            (
                "<plist><array>" + String(repeating: "<array>", count: 70),
                "not a property list: values nested more than 64 deep (at byte 454)"
            ),
        ]
        for (text, reason) in cases {
            #expect(throws: CatalogError.malformed(reason: reason), "\(text.prefix(40))") {
                try Self.parse(Data(text.utf8), chunk: 5)
            }
        }
    }
}
