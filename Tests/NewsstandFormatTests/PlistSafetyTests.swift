import Foundation
import NewsstandCore
import NewsstandFormat
import Testing

/// Property lists from outside: limits on size, values and depth; DOCTYPEs that declare
/// entities; binary plists that share objects or point outside themselves; and the plain XML
/// `PlistWriter` makes for the bundles, which Foundation reads back to the same values.
@Suite struct PlistSafetyTests {
    private let small = PlistLimits(maximumBytes: 4_096, maximumValues: 20, maximumDepth: 4)

    private func problems(_ text: String, limits: PlistLimits = .standard) -> [Diagnostic] {
        do {
            _ = try PlistReader.read(data: Data(text.utf8), displayPath: "x.plist", limits: limits)
            return []
        } catch {
            return error.diagnostics
        }
    }

    // MARK: Limits

    @Test func eachLimitStopsTheReadWithOneDiagnostic() {
        let values = "<plist><array>" + String(repeating: "<true/>", count: 21) + "</array></plist>"
        #expect(
            problems(values, limits: small) == [
                Diagnostic(
                    .plistTooLarge, "x.plist holds more than 20 values, the most a property list may hold",
                    at: SourceLocation(file: "x.plist", line: 1))
            ])
        let deep = "<plist>" + String(repeating: "<array>", count: 5) + String(repeating: "</array>", count: 5) + "</plist>"
        #expect(
            problems(deep, limits: small).map(\.message) == [
                "x.plist nests values more than 4 deep, the most a property list may"
            ])
        let big = "<plist><string>" + String(repeating: "x", count: 4_096) + "</string></plist>"
        #expect(
            problems(big, limits: small).map(\.message)
                == ["x.plist is 4,128 bytes; a property list may be at most 4,096 bytes (4 KiB)"])
        // Right at the limits is fine.
        let full = "<plist><array>" + String(repeating: "<true/>", count: 19) + "</array></plist>"
        #expect(problems(full, limits: small).isEmpty)
    }

    @Test func problemsPastAThousandAreCountedNotKept() {
        let xml = "<plist><array>" + String(repeating: "<foo/>", count: 5_000) + "</array></plist>"
        let found = problems(xml)
        #expect(found.count == 1_001)
        #expect(
            found.dropLast().allSatisfy { $0.code == .malformedPlist && $0.message == "<foo> is not a property-list element" })
        #expect(
            found.last
                == Diagnostic(
                    .tooManyProblems, "4,000 more errors in x.plist are not listed (the first 1,000 problems are)",
                    at: SourceLocation(file: "x.plist")))
    }

    @Test func theStandardLimits() {
        #expect(PlistLimits.standard == PlistLimits(maximumBytes: 8_388_608, maximumValues: 250_000, maximumDepth: 64))
    }

    @Test func manyKeysAreReadInLinearTime() throws {
        // 100,000 distinct keys: a scan per key for duplicates took minutes (5·10⁹ comparisons).
        var xml = "<plist><dict>"
        for index in 0..<100_000 { xml += "<key>k\(index)</key><integer>\(index)</integer>" }
        xml += "<key>k7</key><string>again</string></dict></plist>"
        let root = try PlistReader.read(data: Data(xml.utf8), displayPath: "keys.plist")
        let entries = try #require(root.entries)
        #expect(entries.count == 100_000)
        #expect(entries.last?.key == "k7")
        #expect(root["k7"]?.string == "again")
        #expect(root["k99999"]?.value == .integer(99_999))
    }

    // MARK: DOCTYPEs and entities

    @Test func aDoctypeThatDeclaresAnythingIsRefused() {
        for subset in [
            "<!ENTITY t \"Title\">", "<!ELEMENT plist ANY>", "<!ENTITY x SYSTEM \"file:///etc/passwd\">",
            "<!-- only a comment -->",
        ] {
            let xml =
                "<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n\(subset)\n]>\n<plist><dict><key>a</key><string>b</string></dict></plist>"
            let found = problems(xml)
            #expect(found.map(\.code) == [.plistDoctypeSubset], "\(subset): \(found)")
            #expect(found.first?.location?.line == 2)
        }
        // The usual DOCTYPE, or one naming an outside DTD (never loaded), is fine.
        #expect(problems("<!DOCTYPE plist SYSTEM \"file:///etc/passwd\"><plist><true/></plist>").isEmpty)
        #expect(problems("<!DOCTYPE plist []><plist><true/></plist>").isEmpty)
    }

    @Test func billionLaughsStopsAtTheDoctype() {
        var subset = "<!ENTITY a0 \"ha\">"
        for level in 1...12 { subset += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">" }
        let xml =
            "<!DOCTYPE plist [\(subset)]><plist><array>" + String(repeating: "<string>&a12;</string>", count: 50)
            + "</array></plist>"
        #expect(problems(xml).map(\.code) == [.plistDoctypeSubset])
    }

    @Test func anEntityTheFileDoesNotDeclareIsAProblem() {
        let found = problems("<!DOCTYPE plist SYSTEM \"x.dtd\"><plist><string>a&undeclared;b</string></plist>")
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.code == .malformedPlist || $0.code == .malformedXML }, "\(found)")
    }

    // MARK: Binary

    private func binary(_ object: Any) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
    }

    @Test func binaryPlistsReadLikeFoundationWritesThem() throws {
        let date = Date(timeIntervalSince1970: 1_385_625_600)
        let object: [String: Any] = [
            "small": 7, "negative": -3, "wide": 70_000, "huge": Int.max, "min": Int.min, "real": 1.5, "yes": true,
            "no": false, "date": date, "data": Data([0, 1, 2, 255]), "ascii": "plain", "unicode": "лето ☺ 😀",
            "list": [1, "two", [3.0]], "empty": [String: Any](), "none": [Any](),
        ]
        let root = try PlistReader.read(data: try binary(object), displayPath: "b.plist")
        #expect(root["small"]?.value == .integer(7))
        #expect(root["negative"]?.value == .integer(-3))
        #expect(root["wide"]?.value == .integer(70_000))
        #expect(root["huge"]?.value == .integer(Int.max))
        #expect(root["min"]?.value == .integer(Int.min))
        #expect(root["real"]?.value == .real(1.5))
        #expect(root["yes"]?.value == .boolean(true))
        #expect(root["no"]?.value == .boolean(false))
        #expect(root["date"]?.value == .date(date))
        #expect(root["data"]?.value == .data(Data([0, 1, 2, 255])))
        #expect(root["ascii"]?.string == "plain")
        #expect(root["unicode"]?.string == "лето ☺ 😀")
        #expect(root["list"]?.array?.map(\.value) == [.integer(1), .string("two"), .array([PlistNode(.real(3), line: 0)])])
        #expect(root["empty"]?.entries?.isEmpty == true)
        #expect(root["none"]?.array?.isEmpty == true)
    }

    /// A binary plist from raw objects (4-byte references, 8-byte offsets).
    private func bplist(_ objects: [[UInt8]], top: Int = 0) -> Data {
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(out.count)
            out += object
        }
        let table = out.count
        func be(_ value: Int, _ width: Int) -> [UInt8] {
            (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
        }
        for offset in offsets { out += be(offset, 8) }
        out += [0, 0, 0, 0, 0, 0, 8, 4] + be(objects.count, 8) + be(top, 8) + be(table, 8)
        return Data(out)
    }

    private func array(_ references: [Int]) -> [UInt8] {
        precondition(references.count < 15)
        return [0xA0 | UInt8(references.count)] + references.flatMap { r in [0, 0, 0, UInt8(r)] }
    }

    @Test func sharedObjectsCountEveryTimeTheyAreUsed() {
        // 12 levels, each holding the next 10 times: 10¹² values once expanded, from 260 bytes.
        let objects = (0..<12).map { array(Array(repeating: $0 + 1, count: 10)) } + [[0x09]]
        let found: [Diagnostic]
        do {
            _ = try PlistReader.read(data: bplist(objects), displayPath: "bomb.plist")
            found = []
        } catch {
            found = error.diagnostics
        }
        #expect(found.map(\.message) == ["bomb.plist holds more than 250,000 values, the most a property list may hold"])
    }

    @Test func anObjectThatContainsItselfEndsAtTheDepthLimit() {
        #expect(throws: PlistReadFailure.self) { _ = try PlistReader.read(data: bplist([array([0])]), displayPath: "loop.plist") }
    }

    @Test func malformedBinaryPlistsAreDiagnosedNeverTrusted() throws {
        let valid = try binary(["a": [1, "two", 3.5, Date(timeIntervalSince1970: 0)], "b": Data(repeating: 7, count: 40)])
        // Every single-byte change and every truncation either reads or is a diagnostic: no
        // crash, no read outside the file.
        var generator = SystemRandomNumberGenerator()
        for index in 0..<valid.count {
            var changed = valid
            changed[index] = UInt8.random(in: 0...255, using: &generator)
            _ = try? PlistReader.read(data: changed, displayPath: "m.plist")
            _ = try? PlistReader.read(data: valid.prefix(index), displayPath: "m.plist")
        }
        let offsetOutside = bplist([[0x09]]).enumerated().map { $0.offset == 8 + 1 + 7 ? 0xFF : $0.element }
        #expect(throws: PlistReadFailure.self) { _ = try PlistReader.read(data: Data(offsetOutside), displayPath: "m.plist") }
        let uid = bplist([[0x80, 1]])
        #expect(throws: PlistReadFailure.self) { _ = try PlistReader.read(data: uid, displayPath: "m.plist") }
    }

    @Test func aBinaryStringXMLCannotCarryIsADiagnostic() throws {
        let data = try binary(["a": "bell\u{7}"])
        do {
            _ = try PlistReader.read(data: data, displayPath: "c.plist")
            Issue.record("a control character was accepted")
        } catch {
            #expect(error.diagnostics.map(\.message) == ["a string holds U+0007, which an XML property list cannot carry"])
        }
    }

    // MARK: The plain XML for bundles

    @Test func writtenXMLReadsBackToTheSameValuesWithFoundationAndOurReader() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>text</key><string>a &lt;b&gt; &amp; ]]&gt; "q" 'a' &#13;&#10;tab\tлето 😀</string>
            <key>cdata</key><string><![CDATA[<x>]]></string>
            <key>comment</key><string>h<!-- c -->i</string>
            <key>int</key><integer> 0x1F </integer>
            <key>reals</key><array><real>1e3</real><real>-0.0</real><real>1.0000000000000002</real><real>inf</real></array>
            <key>date</key><date>2026-03-01T08:00:00Z</date>
            <key>data</key><data>aGVs
            bG8=</data>
            <key>empty</key><dict/><key>none</key><array/><key>blank</key><string/>
            <key>text</key><string>last wins</string>
            </dict></plist>
            """
        let root = try PlistReader.read(data: Data(xml.utf8), displayPath: "q.plist")
        let written = try PlistWriter.xml(root)
        #expect(try PlistWriter.xml(try PlistReader.read(data: written, displayPath: "w.plist")) == written)
        let foundation = try #require(try PropertyListSerialization.propertyList(from: written, format: nil) as? [String: Any])
        #expect(foundation["text"] as? String == "last wins")
        #expect(foundation["cdata"] as? String == "<x>")
        #expect(foundation["comment"] as? String == "hi")
        #expect((foundation["int"] as? NSNumber)?.intValue == 31)
        #expect((foundation["reals"] as? [Double]) == [1000, -0.0, 1.0000000000000002, .infinity])
        #expect(foundation["date"] as? Date == PlistDate.parse("2026-03-01T08:00:00Z"))
        #expect(foundation["data"] as? Data == Data("hello".utf8))
        #expect(foundation["blank"] as? String == "")
        let carriage = try PlistReader.read(
            data: Data(xml.replacingOccurrences(of: "last wins", with: "a&#13;b").utf8), displayPath: "r")
        let again = try PlistWriter.xml(carriage)
        let back = try #require(try PropertyListSerialization.propertyList(from: again, format: nil) as? [String: Any])
        #expect(back["text"] as? String == "a\rb")
        #expect(String(decoding: again, as: UTF8.self).hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist"))
    }

    @Test func theWriterRefusesWhatXMLCannotCarry() {
        #expect {
            _ = try PlistWriter.xml(PlistNode(.string("a\u{0}b"), line: 0))
        } throws: { error in
            (error as? PlistWriter.Failure)?.reason == "U+0000 cannot be written in an XML property list"
        }
    }
}
