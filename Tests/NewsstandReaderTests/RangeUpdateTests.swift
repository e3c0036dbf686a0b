import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Issue 14: a downloaded issue whose bundle changed is updated by fetching only the entries
/// that differ, with `Range` requests into the new bundle (bytes counted in the request log),
/// checked against the index; anything doubtful falls back to the whole bundle. On a scripted
/// transport that answers ranges, and several at once as `multipart/byteranges`, by nginx's
/// rules (the fast tier); servers that lie about ranges are `LyingRangeServerTests`'.
@Suite("Update by ranges", .timeLimit(.minutes(1)))
struct RangeUpdateTests {
    static let twelve = (1...12).map { (page: $0, seed: $0) }

    /// Publishes `pages`, downloads it whole, then publishes `updated` and refreshes.
    static func installed(
        _ bed: ScriptedBed, _ pages: [(page: Int, seed: Int)], then updated: [(page: Int, seed: Int)], location: String = "",
        tamper: @escaping (String, inout String) -> Void = { _, _ in }
    ) async throws -> IssueLibrary {
        try bed.publishIndexed([ScriptedBed.paged("m", pages, location: location)])
        let library = try bed.library()
        try await library.refresh(from: bed.catalogURL)
        #expect(try await library.update("m") == .full(.notInstalled))
        let content = try #require(await library.issue(named: "m")).contentURL
        #expect(FileManager.default.fileExists(atPath: content.appendingPathComponent(".newsstand-index.json").path))
        try bed.publishIndexed([ScriptedBed.paged("m", updated, location: location)], tamper: tamper)
        let refreshed = try await library.refresh()
        #expect(refreshed.contentUpdates == ["m"])
        return library
    }

    /// The served index's entry (for the record length of a page).
    static func servedEntry(_ bed: ScriptedBed, _ name: String) throws -> BundleIndex.Entry {
        let index = try BundleIndex.decode(bed.served("m/m.index.json"))
        return try #require(index.entries.first { $0.name == name })
    }

    static func expectSound(_ library: IssueLibrary, _ bed: ScriptedBed) async throws {
        let problems = try await bed.violations(of: library, allowsDownloading: false)
        #expect(problems.isEmpty, "\(problems)")
        #expect(await library.issue(named: "m")?.status == .available)
        #expect(await library.issue(named: "m")?.hasUpdate == false)
    }

    @Test func onePageChangedFetchesOnlyItsRecord() async throws {
        try await ScriptedBed.with { bed in
            var pages = Self.twelve
            pages[4].seed = 99
            let library = try await Self.installed(bed, Self.twelve, then: pages)
            let record = try Self.servedEntry(bed, "page-5.png").recordRange
            #expect(await library.issue(named: "m")?.updateBytes == Int64(record.count), "list shows the update's cost")
            let events = await library.events()
            let before = bed.bundleTraffic("m/m.zip")

            let result = try await library.update("m")

            #expect(result == .ranges(bytesFetched: Int64(record.count), requests: 1, entriesFetched: 1, entriesKept: 13))
            let after = bed.bundleTraffic("m/m.zip")
            #expect(after.whole == before.whole, "no whole download")
            #expect(after.ranges - before.ranges == record.count, "the server sent exactly the changed record")
            #expect(after.requests.last?.range == "bytes=\(record.lowerBound)-\(record.upperBound - 1)")
            try await Self.expectSound(library, bed)
            var seen: [LibraryEvent] = []
            for await event in events {
                seen.append(event)
                if case .updated = event { break }
            }
            #expect(seen.last == .updated(name: "m", result))
        }
    }

    @Test func aPageAddedAndAPageRemoved() async throws {
        try await ScriptedBed.with { bed in
            let pages = Self.twelve.filter { $0.page != 4 } + [(page: 13, seed: 13)]
            let library = try await Self.installed(bed, Self.twelve, then: pages)
            let added = try Self.servedEntry(bed, "page-13.png").recordRange
            let result = try await library.update("m")
            #expect(result == .ranges(bytesFetched: Int64(added.count), requests: 1, entriesFetched: 1, entriesKept: 13))
            let content = try #require(await library.issue(named: "m")).contentURL
            #expect(!FileManager.default.fileExists(atPath: content.appendingPathComponent("page-4.png").path))
            try await Self.expectSound(library, bed)
        }
    }

    @Test func onlyMetadataChangedCostsNoBundleBytes() async throws {
        try await ScriptedBed.with { bed in
            var entries = try bed.publishIndexed([ScriptedBed.paged("m", Self.twelve)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            try await library.download("m")
            let before = bed.bundleTraffic("m/m.zip")
            entries[0].title = "A new title"
            entries[0].date = Date(timeIntervalSince1970: 9 * 86_400)
            try bed.writeCatalog(entries)
            let refreshed = try await library.refresh()
            #expect(refreshed.updated == ["m"] && refreshed.contentUpdates.isEmpty)
            #expect(try await library.update("m") == .upToDate)
            #expect(bed.bundleTraffic("m/m.zip").requests == before.requests, "not one more bundle request")
            #expect(bed.allRequests().filter { $0.uri == "/m/m.index.json" }.count == 1, "the index only at the download")
            try await Self.expectSound(library, bed)
        }
    }

    /// Two changed pages far apart: two ranges, one multipart request.
    @Test func distantChangesComeInOneMultipartRequest() async throws {
        try await ScriptedBed.with { bed in
            var pages = Self.twelve
            pages[1].seed = 98
            pages[9].seed = 99
            let library = try await Self.installed(bed, Self.twelve, then: pages)
            let first = try Self.servedEntry(bed, "page-2.png").recordRange
            let second = try Self.servedEntry(bed, "page-10.png").recordRange
            let before = bed.bundleTraffic("m/m.zip").requests.count
            let result = try await library.update("m")
            #expect(
                result
                    == .ranges(bytesFetched: Int64(first.count + second.count), requests: 1, entriesFetched: 2, entriesKept: 12))
            let requests = bed.bundleTraffic("m/m.zip").requests.dropFirst(before)
            #expect(requests.map(\.status) == [206])
            #expect(requests.first?.range?.contains(",") == true)
            try await Self.expectSound(library, bed)
        }
    }

    /// A server ignoring ranges (nginx's `max_ranges 0`, Python's http.server) answers a `Range`
    /// request with the whole file (200): the update stops that answer and downloads the bundle
    /// as today.
    @Test func aServerIgnoringRangesGetsAWholeDownload() async throws {
        try await ScriptedBed.with { bed in
            bed.releaseSlow()  // norange/ holds first downloads like slow/; this test cancels none
            let four = Array(Self.twelve.prefix(4))
            var pages = four
            pages[2].seed = 99
            let library = try await Self.installed(bed, four, then: pages, location: "norange/")
            #expect(try await library.update("m") == .full(.rangesIgnored))
            try await Self.expectSound(library, bed)
        }
    }

    @Test func overHalfChangedGetsAWholeDownload() async throws {
        try await ScriptedBed.with { bed in
            let pages = Self.twelve.map { $0.page <= 7 ? (page: $0.page, seed: $0.seed + 100) : $0 }
            let library = try await Self.installed(bed, Self.twelve, then: pages)
            #expect(await library.issue(named: "m")?.updateBytes == nil, "list shows a whole download")
            guard case .full(.tooMuchChanged(let bytes, let size)) = try await library.update("m") else {
                Issue.record("not a whole download for a large change")
                return
            }
            #expect(bytes * 2 > size)
            try await Self.expectSound(library, bed)
        }
    }

    /// The publisher's index lies about the changed page's hash (and the catalog vouches for the
    /// lying index): the fetched entry is refused, nothing of it is used, the whole bundle comes.
    @Test func anIndexWhoseHashDoesNotMatchWhatIsServedIsRefused() async throws {
        try await ScriptedBed.with { bed in
            var pages = Self.twelve
            pages[4].seed = 99
            let library = try await Self.installed(bed, Self.twelve, then: pages) { _, text in
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
                    guard line.contains("\"page-5.png\""), let key = line.range(of: "\"sha256\":\"") else { return String(line) }
                    let hash = key.upperBound..<line.index(key.upperBound, offsetBy: 64)
                    return line.replacingCharacters(in: hash, with: String(repeating: "0", count: 64))
                }
                text = lines.joined(separator: "\n")
            }
            guard case .full(.indexMismatch(let reason)) = try await library.update("m") else {
                Issue.record("a lying index was not refused")
                return
            }
            #expect(reason.contains("page-5.png") && reason.contains("SHA-256"), "\(reason)")
            try await Self.expectSound(library, bed)
            let content = try #require(await library.issue(named: "m")).contentURL
            #expect(
                !FileManager.default.fileExists(atPath: content.appendingPathComponent(".newsstand-index.json").path),
                "the lying index is not kept")
        }
    }

    /// Hostile indexes (vouched for by the catalog): `BundleIndex.decode` refuses each, the
    /// update downloads the whole bundle, and nothing is written outside the issue's folder.
    @Test(arguments: ["dotdot", "pastEnd", "overlap", "huge", "bomb", "fileAndFolder"])
    func aHostileIndexIsRefusedAndNothingLeavesTheIssueFolder(kind: String) async throws {
        try await ScriptedBed.with { bed in
            var pages = Self.twelve
            pages[4].seed = 99
            let library = try await Self.installed(bed, Self.twelve, then: pages) { _, text in
                switch kind {
                case "dotdot":
                    text = text.replacingOccurrences(of: "\"name\":\"page-5.png\"", with: "\"name\":\"../../page-5.png\"")
                case "fileAndFolder":
                    // `page-5.png` and `page-5.png/e.png` (issue 23 §9): no folder holds both.
                    text = text.replacingOccurrences(of: "\"name\":\"page-6.png\"", with: "\"name\":\"page-5.png/e.png\"")
                case "pastEnd":
                    text = text.replacingOccurrences(of: "\"length\":65536}\n]", with: "\"length\":6553600}\n]")
                case "overlap":
                    let header = text.components(separatedBy: "\"name\":\"page-5.png\"")[1].components(
                        separatedBy: "\"header\":")[1]
                        .prefix { $0.isNumber }
                    text = text.replacingOccurrences(
                        of: "\"name\":\"page-6.png\"", with: "\"name\":\"page-6.png\",\"x\":0")
                    let lines = text.split(separator: "\n").map { line -> String in
                        guard line.contains("\"page-6.png\"") else { return String(line) }
                        let old = line.components(separatedBy: "\"header\":")[1].prefix { $0.isNumber }
                        return line.replacingOccurrences(of: "\"header\":\(old)", with: "\"header\":\(header)")
                    }
                    text = lines.joined(separator: "\n") + "\n"
                case "bomb":
                    // A deflated entry said to inflate to 9 GB: past the unpack limits before a byte is fetched.
                    let lines = text.split(separator: "\n").map { line -> String in
                        guard line.contains("\"page-5.png\"") else { return String(line) }
                        return line.replacingOccurrences(of: "\"size\":65536", with: "\"size\":9000000000")
                            .replacingOccurrences(of: "\"method\":\"stored\"", with: "\"method\":\"deflated\"")
                    }
                    text = lines.joined(separator: "\n") + "\n"
                default: text = text.replacingOccurrences(of: "\"length\":65536}", with: "\"length\":9223372036854775000}")
                }
            }
            let outside = bed.libraryFolder.deletingLastPathComponent()
            let before = try FileManager.default.contentsOfDirectory(atPath: outside.path).filter { $0.hasPrefix("page") }
            guard case .full(.indexUnusable(let reason)) = try await library.update("m") else {
                Issue.record("a hostile index (\(kind)) was not refused")
                return
            }
            #expect(reason.contains(kind == "bomb" ? "unpack limit" : "bundle index"), "\(reason)")
            if kind == "fileAndFolder" {
                #expect(
                    reason == "bundle index: entry 'page-5.png/e.png': name is inside 'page-5.png', which is a file of the bundle"
                )
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path).filter { $0.hasPrefix("page") } == before)
            try await Self.expectSound(library, bed)
        }
    }

    /// An index whose bytes are not the ones the catalog's SHA-256 names.
    @Test func anIndexNotMatchingTheCatalogIsRefused() async throws {
        try await ScriptedBed.with { bed in
            var pages = Self.twelve
            pages[4].seed = 99
            let library = try await Self.installed(bed, Self.twelve, then: pages)
            var bytes = try bed.served("m/m.index.json")
            bytes[bytes.count - 2] = UInt8(ascii: " ")
            bed.serve(bytes, at: "m/m.index.json")
            guard case .full(.indexUnusable(let reason)) = try await library.update("m") else {
                Issue.record("an index not matching the catalog was used")
                return
            }
            #expect(reason.contains("SHA-256"), "\(reason)")
            try await Self.expectSound(library, bed)
        }
    }

    /// A page config of one article per page.
    static func pagesPlist(_ pages: [Int]) -> String {
        let articles = pages.map {
            "<array><dict><key>class</key><string>SimplePage</string><key>properties</key><dict><key>baseImage</key>"
                + "<string>page-\($0).png</string></dict></dict></array>"
        }
        return "<plist><array>\(articles.joined())</array></plist>"
    }

    /// The reader was on the last article; the update removes the last two pages: the cursor
    /// opens clamped onto the new last article, and a content read before the update stays whole.
    @Test func theReadingPositionIsClampedWhenPagesAreRemoved() async throws {
        try await ScriptedBed.with { bed in
            func spec(_ pages: [Int], seed: Int) -> ScriptedBed.IssueSpec {
                var spec = ScriptedBed.paged("m", pages.map { (page: $0, seed: $0 == 5 ? seed : $0) })
                spec.normal = spec.normal.map {
                    if case .text("pages.plist", _) = $0 { return .text("pages.plist", Self.pagesPlist(pages)) }
                    return $0
                }
                return spec
            }
            try bed.publishIndexed([spec(Array(1...12), seed: 5)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            try await library.download("m")
            try await library.setReadingPosition(ReadingPosition(article: 11, page: 0), of: "m")
            let before = try await library.content(of: "m")
            try bed.publishIndexed([spec(Array(1...10), seed: 99)])
            try await library.refresh()
            guard case .ranges(_, _, let fetched, _) = try await library.update("m") else {
                Issue.record("not by ranges")
                return
            }
            #expect(fetched == 2, "pages.plist and page-5.png")
            let cursor = try await library.cursor(for: "m")
            #expect(cursor.position == ReadingPosition(article: 9, page: 0))
            #expect(before.articles.count == 12 && cursor.content.articles.count == 10)
            try await Self.expectSound(library, bed)
        }
    }

    /// An installed file that is not what its index says (cut short by something else, or
    /// replaced by a link) is fetched again, not kept.
    @Test func installedFilesAreCheckedBeforeTheyAreKept() async throws {
        try await ScriptedBed.with { bed in
            var pages = Self.twelve
            pages[4].seed = 99
            let library = try await Self.installed(bed, Self.twelve, then: pages)
            let content = try #require(await library.issue(named: "m")).contentURL
            let cut = content.appendingPathComponent("page-7.png")
            try Data(try Data(contentsOf: cut).prefix(1000)).write(to: cut)
            let linked = content.appendingPathComponent("page-9.png")
            try FileManager.default.removeItem(at: linked)
            try FileManager.default.createSymbolicLink(atPath: linked.path, withDestinationPath: "/etc/hostname")
            let result = try await library.update("m")
            guard case .ranges(_, _, let fetched, let kept) = result else {
                Issue.record("not by ranges: \(result)")
                return
            }
            #expect(fetched == 3 && kept == 11)
            try await Self.expectSound(library, bed)
        }
    }
}
