import Foundation
import NewsstandCore
import Testing

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

    /// The keys are a format other readers parse: written literally here, not through the
    /// constants the writer and the parser share (a renamed constant would pass every round trip).
    @Test func anEntryWritesTheDocumentedKeys() throws {
        var entry = CatalogEntry(name: "a-1", title: "A", date: Date(timeIntervalSince1970: 0), cover: "c.png", content: "a.zip")
        entry.summary = "s"
        entry.productID = "p"
        entry.access = .paid
        entry.contentSize = 1
        entry.contentSHA256 = "x"
        entry.retinaContentSize = 2
        entry.retinaContentSHA256 = "y"
        entry.coverSHA256 = "z"
        entry.retinaCoverSHA256 = "w"
        #expect(
            Set(entry.plist.keys) == [
                "Name", "Title", "Date", "Cover", "Content", "Summary", "ProductID", "Access", "ContentSize", "ContentSHA256",
                "RetinaContentSize", "RetinaContentSHA256", "CoverSHA256", "RetinaCoverSHA256",
            ])
        #expect(entry.plist["RetinaContentSHA256"] == .string("y"))
        #expect(entry.plist["Access"] == .string("paid"))
        #expect(try CatalogEntry(plist: entry.plist) == entry)
        // Free is the default and is not written: a free entry keeps the keys it always had.
        entry.access = .free
        #expect(entry.plist["Access"] == nil)
        #expect(try CatalogEntry(plist: entry.plist) == entry)
    }

    /// `Access` as a reader takes it from any catalog: absent or `free` is free; any other
    /// string (a value a later version may write) is paid; a value of another type is ignored,
    /// as every optional key of the wrong type is.
    @Test func accessIsReadAsFreeOnlyWhenTheCatalogSaysSoOrSaysNothing() throws {
        let entry = CatalogEntry(name: "a-1", title: "A", date: Date(timeIntervalSince1970: 0), cover: "c.png", content: "a.zip")
        let cases: [(PlistValue?, IssueAccess)] = [
            (nil, .free), (.string("free"), .free), (.string("paid"), .paid), (.string("subscription"), .paid),
            (.string("Free"), .paid), (.integer(1), .free), (.boolean(true), .free),
        ]
        for (value, access) in cases {
            var plist = entry.plist
            plist["Access"] = value
            #expect(try CatalogEntry(plist: plist).access == access, "\(String(describing: value))")
        }
        let xml = """
            <plist version="1.0"><array><dict><key>Name</key><string>a-1</string><key>Title</key><string>A</string>
            <key>Date</key><date>2013-11-28T08:00:00Z</date><key>Cover</key><string>c.png</string>
            <key>Content</key><string>a.zip</string><key>Access</key><string>paid</string></dict></array></plist>
            """
        #expect(try Catalog.decode(Data(xml.utf8)).entries.map(\.access) == [.paid])
    }

    /// Newest first; two issues of one date by name, so that the order is the same on every
    /// build. Names here sort against their dates, so name order and date order differ.
    @Test func entriesAreNewestFirstThenByName() throws {
        let day = 86_400.0
        let entries = [("z-old", 1.0), ("b-same", 5.0), ("a-new", 9.0), ("a-same", 5.0), ("m-mid", 3.0)].map {
            CatalogEntry(name: $0.0, title: $0.0, date: Date(timeIntervalSince1970: $0.1 * day), cover: "c.png", content: "a.zip")
        }
        #expect(Catalog.sorted(entries).map(\.name) == ["a-new", "a-same", "b-same", "m-mid", "z-old"])
        let decoded = try Catalog.decode(Catalog.encode(entries)).entries
        #expect(decoded.map(\.name) == ["a-new", "a-same", "b-same", "m-mid", "z-old"])
        #expect(
            IssueOrder.sorted(entries.reversed()) { ($0.date, $0.name) }.map(\.name) == [
                "a-new", "a-same", "b-same", "m-mid", "z-old",
            ])
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
            let text = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02dZ", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0,
                c.second ?? 0)
            #expect(PlistDate.format(date) == text)
            #expect(PlistDate.parse(text) == date)
            date = date.addingTimeInterval(86_400 * 251 + 3_607)
        }
        #expect(PlistDate.parse("2024-02-29T00:00:00Z") != nil)
        #expect(PlistDate.parse("2100-02-29T00:00:00Z") == nil)
    }
}
