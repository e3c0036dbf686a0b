import Foundation
import NewsstandFormat
import Testing

@Suite struct RetinaNameTests {
    @Test(arguments: [
        ("f2.png", "f2@2x.png"), ("f2.zip", "f2@2x.zip"), ("archive.tar.gz", "archive.tar@2x.gz"), ("README", "README@2x"),
        ("http://fo-nt.net/f/f2.png", "http://fo-nt.net/f/f2@2x.png"),
        ("https://cdn.example.com/a.b/c?x=1.2", "https://cdn.example.com/a.b/c@2x?x=1.2"),
        ("https://example.com/v1.2/cover.png#top", "https://example.com/v1.2/cover@2x.png#top"),
    ])
    func insertsBeforeTheExtension(name: String, retina: String) {
        #expect(RetinaName.of(name) == retina)
    }

    @Test func recognisesRetinaNames() {
        #expect(RetinaName.normalName(of: "1-0@2x.png") == "1-0.png")
        #expect(RetinaName.normalName(of: "1-0.png") == nil)
        #expect(RetinaName.isRetina("a@2x"))
    }
}

@Suite struct IssueNameTests {
    @Test func safeNames() {
        for name in ["f-2", "2013_11", "a.b"] { #expect(IssueName.isSafe(name)) }
        for name in ["", ".hidden", "../x", "a/b", "a b", "лето", "a:b"] { #expect(!IssueName.isSafe(name)) }
    }
}

@Suite struct PlistDateTests {
    @Test func roundTrips() throws {
        let date = try #require(PlistDate.parse("2013-11-28T08:00:00Z"))
        #expect(date.timeIntervalSince1970 == 1_385_625_600)
        #expect(PlistDate.format(date) == "2013-11-28T08:00:00Z")
    }

    @Test func rejectsOtherFormats() {
        for text in ["2013-11-28", "28.11.2013", "2013-02-30T00:00:00Z", "2013-11-28T25:00:00Z", "2013-11-28 08:00:00Z"] {
            #expect(PlistDate.parse(text) == nil, "\(text)")
        }
    }
}

@Suite struct PlistReaderTests {
    @Test func keepsLinesOfEveryNode() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
                <key>name</key>
                <string>лето &amp; осень</string>
                <key>list</key>
                <array>
                    <integer>-0x10</integer>
                    <real>1.5</real>
                    <true/>
                    <data>aGk=</data>
                </array>
            </dict>
            </plist>
            """
        let root = try PlistReader.read(data: Data(xml.utf8), displayPath: "x.plist")
        #expect(root.line == 3)
        #expect(root["name"]?.string == "лето & осень")
        #expect(root.entry("name")?.keyLine == 4)
        #expect(root["name"]?.line == 5)
        let list = try #require(root["list"]?.array)
        #expect(list.map(\.line) == [8, 9, 10, 11])
        #expect(list.map(\.value) == [.integer(-16), .real(1.5), .boolean(true), .data(Data("hi".utf8))])
    }

    @Test func malformedXMLReportsLibxml2sMessageLineAndColumn() {
        let xml = "<plist>\n<dict>\n<key>a</key>\n<string>b</strin>\n</dict>\n</plist>\n"
        #expect {
            _ = try PlistReader.read(data: Data(xml.utf8), displayPath: "x.plist")
        } throws: { error in
            guard let failure = error as? PlistReadFailure, let d = failure.diagnostics.first else { return false }
            return d.code == .malformedXML && d.location?.line == 4 && d.location?.column != nil && d.message.contains("mismatch")
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

@Suite struct CatalogTests {
    @Test func decodesTheSeedsFiveKeysAndSkipsBrokenEntries() throws {
        let xml = """
            <plist version="1.0"><array>
            <dict><key>Name</key><string>f-2</string><key>Title</key><string>лето/осень 2013</string>
            <key>Date</key><date>2013-11-28T08:00:00Z</date><key>Cover</key><string>http://fo-nt.net/f/f2.png</string>
            <key>Content</key><string>http://fo-nt.net/f/f2.zip</string></dict>
            <dict><key>Name</key><string>f-3</string></dict>
            </array></plist>
            """
        let (entries, problems) = try Catalog.decode(Data(xml.utf8))
        #expect(entries.map(\.name) == ["f-2"])
        #expect(entries.first?.contentURL(retina: true) == "http://fo-nt.net/f/f2@2x.zip")
        #expect(problems.count == 1)
        #expect(throws: CatalogError.malformed(reason: "the root is not an array")) {
            _ = try Catalog.decode(Data("<plist><dict/></plist>".utf8))
        }
    }

    @Test func sha256MatchesKnownVector() {
        #expect(SHA256.hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}

@Suite struct CivilDateTests {
    /// The arithmetic agrees with Foundation's Gregorian calendar across four centuries.
    @Test func agreesWithFoundationsCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        var date = try #require(calendar.date(from: DateComponents(year: 1890, month: 1, day: 1, hour: 13, minute: 7, second: 9)))
        for _ in 0..<600 {
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let text = String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
            #expect(PlistDate.format(date) == text)
            #expect(PlistDate.parse(text) == date)
            date = date.addingTimeInterval(86_400 * 251 + 3_607)
        }
        #expect(PlistDate.parse("2024-02-29T00:00:00Z") != nil)
        #expect(PlistDate.parse("2100-02-29T00:00:00Z") == nil)
    }
}
