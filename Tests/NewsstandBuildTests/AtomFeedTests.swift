import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The Atom feed's entry times (kept in `feed-updated.json`), its author, and the Newsstand
/// feed's rules checked while validating. The feed read by Python's xml.etree, a parser we did
/// not write: `AtomFeedToolTests`.
@Suite struct AtomFeedTests {
    let t1 = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09-21T14:13:20Z
    private let t2 = Date(timeIntervalSince1970: 1_790_086_400)  // a day later
    private let t3 = Date(timeIntervalSince1970: 1_790_172_800)  // two days later

    func build(_ fixture: MagazineFixture, into output: URL, now: Date, force: Bool = false) async throws -> BuildReport {
        let (magazine, plans) = try fixture.plans()
        return try await offPool {
            try MagazineBuilder(
                magazine: magazine,
                options: BuildOptions(output: output, jobs: 1, force: force, feeds: [.atom], versioned: false, now: now)
            ).build(plans)
        }
    }

    /// `name updated` per entry, then `feed updated`, read with an XML parser (libxml2's, in
    /// this process; `AtomFeedToolTests` reads the feed with Python's xml.etree).
    func times(_ output: URL) async throws -> [String] {
        let reader = AtomTimes()
        let parser = XMLParser(data: try Data(contentsOf: output.appendingPathComponent("atom.xml")))
        parser.shouldProcessNamespaces = true
        parser.delegate = reader
        let parsed = parser.parse()
        #expect(parsed, "atom.xml is not well-formed XML: \(String(describing: parser.parserError))")
        return reader.lines + ["feed \(reader.feedUpdated ?? "none")"]
    }

    private func record(_ output: URL, _ issue: String) -> URL {
        output.appendingPathComponent("\(issue)/.newsstand/feed-updated.json")
    }

    @Test func anEntryIsUpdatedOnlyWhenWhatTheFeedShowsChanges() async throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try await build(fixture, into: output, now: t1)
        #expect(try await times(output) == ["f-2 2026-09-21T14:13:20Z", "f-1 2026-09-21T14:13:20Z", "feed 2026-09-21T14:13:20Z"])
        let first = try Data(contentsOf: output.appendingPathComponent("atom.xml"))

        // Nothing changed, a day later, forced rebuild included: byte-identical feed.
        _ = try await build(fixture, into: output, now: t2)
        #expect(try Data(contentsOf: output.appendingPathComponent("atom.xml")) == first)
        _ = try await build(fixture, into: output, now: t2, force: true)
        #expect(try Data(contentsOf: output.appendingPathComponent("atom.xml")) == first)

        // An edited summary moves that entry (and the feed) only.
        let issue = try String(contentsOf: fixture.url("issues/f-1/issue.plist"), encoding: .utf8)
        try fixture.write(
            "issues/f-1/issue.plist", issue.replacingOccurrences(of: "The f-1 issue.", with: "The f-1 issue, corrected."))
        _ = try await build(fixture, into: output, now: t3)
        #expect(try await times(output) == ["f-2 2026-09-21T14:13:20Z", "f-1 2026-09-23T14:13:20Z", "feed 2026-09-23T14:13:20Z"])

        // A new cover image under the same name is an edit too.
        try fixture.write("issues/f-2/assets/cover@2x.png", MagazineFixture.png(width: 20, height: 40, seed: "new cover"))
        _ = try await build(fixture, into: output, now: t3.addingTimeInterval(60))
        #expect(try await times(output).prefix(1) == ["f-2 2026-09-23T14:14:20Z"])
    }

    @Test func aTimeNeverGoesBackWhenTheClockDoes() async throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try await build(fixture, into: output, now: t2)
        let issue = try String(contentsOf: fixture.url("issues/f-1/issue.plist"), encoding: .utf8)
        try fixture.write("issues/f-1/issue.plist", issue.replacingOccurrences(of: "Issue f-1", with: "Issue f-1, renamed"))
        _ = try await build(fixture, into: output, now: t1)  // a machine whose clock is a day behind
        #expect(try await times(output).first == "f-1 2026-09-22T14:13:21Z")
    }

    @Test(arguments: [
        ("not json", "is not a feed record newsstand can read"),
        (#"{"fingerprint": "abc", "updated": "2026-09-21T14:13:20Z"}"#, "is not a feed record newsstand can read"),
        (
            #"{"fingerprint": "\#(String(repeating: "0", count: 64))", "updated": "9999-12-31T23:59:59Z"}"#,
            "gives the time '9999-12-31T23:59:59Z', which is not a UTC date no later than a day from now"
        ),
        (
            #"{"fingerprint": "\#(String(repeating: "0", count: 64))", "updated": "yesterday"}"#,
            "gives the time 'yesterday', which is not a UTC date no later than a day from now"
        ),
        (String(repeating: " ", count: 5000), "is larger than 4096 bytes; newsstand never writes one that large"),
    ])
    func aRecordThatLiesIsNotTrusted(content: String, problem: String) async throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try await build(fixture, into: output, now: t1)
        try Data(content.utf8).write(to: record(output, "f-1"))
        let report = try await build(fixture, into: output, now: t2)
        #expect(
            report.warnings == [
                "issue 'f-1': \(record(output, "f-1").path) \(problem); the feed's updated time starts again from now"
            ])
        #expect(try await times(output).first == "f-1 2026-09-22T14:13:20Z")
        // Replaced by a good one: the next build trusts it.
        #expect(try await build(fixture, into: output, now: t3).warnings.isEmpty)
        #expect(try await times(output).first == "f-1 2026-09-22T14:13:20Z")
    }

    @Test func aRecordThatIsALinkIsNeitherReadNorWrittenThrough() async throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try await build(fixture, into: output, now: t1)
        let elsewhere = try Shell.temporaryFolder().appendingPathComponent("victim.json")
        let good = try Data(contentsOf: record(output, "f-1"))
        try good.write(to: elsewhere)
        try FileManager.default.removeItem(at: record(output, "f-1"))
        try FileManager.default.createSymbolicLink(at: record(output, "f-1"), withDestinationURL: elsewhere)
        let report = try await build(fixture, into: output, now: t2)
        #expect(report.warnings.count == 1)
        #expect(report.warnings.first?.hasPrefix("issue 'f-1': \(record(output, "f-1").path) cannot be read: ") == true)
        #expect(try Data(contentsOf: elsewhere) == good, "the link's target is untouched")
        let kind = try FileManager.default.attributesOfItem(atPath: record(output, "f-1").path)[.type] as? FileAttributeType
        #expect(kind == .typeRegular, "the link was replaced by a record of our own, not written through")
    }

    @Test func aGatheredIssueLinkedInIsReadThroughButNeverWrittenThrough() async throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try await build(fixture, into: output, now: t1)
        let gathered = try Shell.temporaryFolder()
        try FileManager.default.createSymbolicLink(
            at: gathered.appendingPathComponent("f-1"), withDestinationURL: output.appendingPathComponent("f-1"))
        let (magazine, _) = try fixture.plans()
        var result = try CatalogWriter(magazine: magazine, output: gathered, feeds: [.atom], now: t2).write()
        #expect(result.warnings.isEmpty)
        #expect(try await times(gathered).first == "f-1 2026-09-21T14:13:20Z", "the record is read through the link")

        try FileManager.default.removeItem(at: record(output, "f-1"))
        result = try CatalogWriter(magazine: magazine, output: gathered, feeds: [.atom], now: t2).write()
        #expect(
            result.warnings == [
                "issue 'f-1': \(gathered.path)/f-1 is a symbolic link; its feed record is not written through it, so the next build gives its entry a new updated time"
            ])
        #expect(try await times(gathered).first == "f-1 2026-09-22T14:13:20Z")
        #expect(!FileManager.default.fileExists(atPath: record(output, "f-1").path), "nothing written through the link")
    }

    @Test func anAbsentRecordGivesNowNotTheIssueDate() async throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try await build(fixture, into: output, now: t1)
        try FileManager.default.removeItem(at: record(output, "f-1"))
        let report = try await build(fixture, into: output, now: t2)
        #expect(report.warnings.isEmpty)
        #expect(try await times(output).first == "f-1 2026-09-22T14:13:20Z")
    }

    @Test func anIssueThatLeftTheMagazineLeavesNoFolderBehind() async throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try await build(fixture, into: output, now: t1)
        try fixture.remove("issues/f-2")
        let report = try await build(fixture, into: output, now: t2)
        #expect(report.removed == ["f-2"])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("f-2").path))
    }

    @Test func aPublisherThatIsNotAStringIsAnError() async throws {
        let fixture = try MagazineFixture()
        let settings = try String(contentsOf: fixture.url("magazine.plist"), encoding: .utf8)
        try fixture.write(
            "magazine.plist",
            settings.replacingOccurrences(
                of: "<key>Title</key>", with: "<key>Publisher</key>\n    <integer>7</integer>\n    <key>Title</key>"))
        let found = fixture.validate().with(.magazinePublisher)
        #expect(found.map(\.location) == [SourceLocation(file: "magazine.plist", line: 6)])
        #expect(found.map(\.message) == ["Publisher, when given, must be a non-empty string; found integer"])
        #expect(found.first?.severity == .error)
    }

    // MARK: The Newsstand feed's rules, while validating

    private func issuePlist(summary: String?) -> String {
        MagazineFixture.plist(
            """
            <dict>
                <key>Title</key>
                <string>Issue f-1</string>
                <key>Date</key>
                <date>2026-01-01T08:00:00Z</date>
                <key>Cover</key>
                <string>cover.png</string>
            \(summary.map { "    <key>Summary</key>\n    <string>\($0)</string>" } ?? "")
            </dict>
            """)
    }

    @Test(arguments: [
        ("too short", "issue 'f-1' Summary is 9 bytes of UTF-8; the Newsstand feed needs 10 to 2,000"),
        // 1,001 characters but 2,002 bytes: the rule counts bytes.
        (String(repeating: "ж", count: 1001), "issue 'f-1' Summary is 2002 bytes of UTF-8; the Newsstand feed needs 10 to 2,000"),
        (String(repeating: "a", count: 2001), "issue 'f-1' Summary is 2001 bytes of UTF-8; the Newsstand feed needs 10 to 2,000"),
    ])
    func aSummaryOutsideTheBoundsIsReportedWhereItIs(summary: String, message: String) async throws {
        let fixture = try MagazineFixture()
        try fixture.image("f-1", "cover.png", width: 512, height: 768)
        try fixture.write("issues/f-1/issue.plist", issuePlist(summary: summary))
        let found = fixture.validate(feeds: [.atom])
        #expect(found.map(\.code) == [.feedSummary])
        #expect(found.map(\.message) == [message])
        #expect(found.map(\.location) == [SourceLocation(file: "issues/f-1/issue.plist", line: 12)])
        #expect(found.first?.severity == .warning)
        #expect(fixture.validate().isEmpty, "without --feed atom the feed's rules are not checked")
    }

    @Test func summariesAtTheBoundsPass() async throws {
        let fixture = try MagazineFixture()
        try fixture.image("f-1", "cover.png", width: 512, height: 768)
        for summary in ["ten bytes!", String(repeating: "ж", count: 1000)] {
            try fixture.write("issues/f-1/issue.plist", issuePlist(summary: summary))
            #expect(fixture.validate(feeds: [.atom]).isEmpty)
        }
    }

    @Test func aMissingSummaryIsReportedOnTheDict() async throws {
        let fixture = try MagazineFixture()
        try fixture.image("f-1", "cover.png", width: 512, height: 768)
        try fixture.write("issues/f-1/issue.plist", issuePlist(summary: nil))
        let found = fixture.validate(feeds: [.atom])
        #expect(found.map(\.location) == [SourceLocation(file: "issues/f-1/issue.plist", line: 4)])
        #expect(
            found.map(\.message) == [
                "issue 'f-1' has no Summary; the Newsstand feed needs one of 10 to 2,000 bytes (the Atom feed shows the Title instead)"
            ])
    }

    @Test(arguments: [
        // normal size (the @2x cover is twice it), and what is wrong
        (10, 20, "20×40"),
        (400, 500, "800×1000"),  // long side under 1,024
        (1025, 256, "2050×512"),  // wider than 2:1
        (256, 1025, "512×2050"),  // taller than 1:2
    ])
    func aCoverOutsideTheRulesIsReportedOnTheCoverKey(width: Int, height: Int, size: String) async throws {
        let fixture = try MagazineFixture()
        try fixture.image("f-1", "cover.png", width: width, height: height)
        let found = fixture.validate(feeds: [.atom])
        let long = max(width, height) * 2
        let short = min(width, height) * 2
        let passes = long >= 1024 && short * 2 >= long
        #expect(found.map(\.code) == (passes ? [] : [.feedCover]))
        if !passes {
            #expect(
                found.map(\.message) == [
                    "issue 'f-1' cover 'cover@2x.png' is \(size); the Newsstand feed's cover must be a PNG with an aspect ratio between 1:2 and 2:1 and a long side of at least 1024 px"
                ])
            // issue.plist's Cover value: line 10 of the fixture's issue.plist.
            #expect(found.map(\.location) == [SourceLocation(file: "issues/f-1/issue.plist", line: 10)])
        }
    }

    @Test func coversAtTheBoundsPass() async throws {
        let fixture = try MagazineFixture()
        for (width, height) in [(512, 256), (256, 512), (512, 512), (600, 400)] {
            try fixture.image("f-1", "cover.png", width: width, height: height)
            #expect(fixture.validate(feeds: [.atom]).isEmpty, "\(width)×\(height)")
        }
    }

    @Test func aCoverThatIsNotPNGIsReported() async throws {
        let fixture = try MagazineFixture()
        try fixture.image("f-1", "cover.png", width: 512, height: 768)
        // A GIF header under a .png name is NS-305 already; a real JPEG cover named .jpg:
        var jpeg = Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08])
        jpeg.append(contentsOf: [0x06, 0x00, 0x04, 0x00])  // 1536 high, 1024 wide
        jpeg.append(contentsOf: [UInt8](repeating: 0, count: 12))
        var normal = Data([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08])
        normal.append(contentsOf: [0x03, 0x00, 0x02, 0x00])
        normal.append(contentsOf: [UInt8](repeating: 0, count: 12))
        try fixture.write("issues/f-1/assets/cover.jpg", normal)
        try fixture.write("issues/f-1/assets/cover@2x.jpg", jpeg)
        try fixture.remove("issues/f-1/assets/cover.png")
        try fixture.remove("issues/f-1/assets/cover@2x.png")
        let issue = try String(contentsOf: fixture.url("issues/f-1/issue.plist"), encoding: .utf8)
        try fixture.write("issues/f-1/issue.plist", issue.replacingOccurrences(of: "cover.png", with: "cover.jpg"))
        let found = fixture.validate(feeds: [.atom])
        #expect(found.map(\.code) == [.feedCover], "\(found)")
        #expect(found.first?.message.hasPrefix("issue 'f-1' cover 'cover@2x.jpg' is 1024×1536, not PNG; ") == true)
    }
}

/// The `updated` times of an Atom feed: `<entry id's last path component> <updated>` per entry,
/// in order, and the feed's own.
private final class AtomTimes: NSObject, XMLParserDelegate {
    static let atom = "http://www.w3.org/2005/Atom"
    var lines: [String] = []
    var feedUpdated: String?
    private var path: [String] = []
    private var text = ""
    private var entryID: String?
    private var entryUpdated: String?

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        path.append(namespaceURI == Self.atom ? elementName : "{\(namespaceURI ?? "")}\(elementName)")
        text = ""
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        switch path {
        case ["feed", "entry", "id"]: entryID = text.components(separatedBy: "/").last
        case ["feed", "entry", "updated"]: entryUpdated = text
        case ["feed", "entry"]:
            lines.append("\(entryID ?? "none") \(entryUpdated ?? "none")")
            entryID = nil
            entryUpdated = nil
        case ["feed", "updated"]: feedUpdated = text
        default: break
        }
        path.removeLast()
    }
}
