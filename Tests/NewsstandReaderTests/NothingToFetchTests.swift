import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Updates whose every entry is already installed (issue 23 §5): a bundle that only drops an
/// entry, or holds the same files packed another way, costs no bundle byte and completes (kept
/// files, removed entries, the new index), on the first try. And a ranges path that fails on
/// this side (the spool cannot be written) falls back to a whole download instead of failing.
/// On a scripted transport (the fast tier); a bundle repacked with zlib is
/// `NothingToFetchRepackedTests`' (Python deflates it).
@Suite("Nothing to fetch", .timeLimit(.minutes(1)))
struct NothingToFetchTests {
    static let twelve = (1...12).map { (page: $0, seed: $0) }

    /// Publishes twelve pages, downloads them, and returns the library and the catalog entries.
    static func downloaded(_ bed: ScriptedBed) async throws -> (IssueLibrary, [CatalogEntry]) {
        let entries = try bed.publishIndexed([ScriptedBed.paged("m", twelve)])
        let library = try bed.library()
        try await library.refresh(from: bed.catalogURL)
        try await library.download("m")
        return (library, entries)
    }

    /// The update went by ranges without a bundle request, and the library holds the served bundle.
    static func expectCompletedWithoutARequest(
        _ library: IssueLibrary, _ bed: ScriptedBed, kept: Int, before: [LoggedRequest]
    ) async throws {
        #expect(await library.issue(named: "m")?.updateBytes == 0, "list shows an update of 0 bytes")
        #expect(try await library.update("m") == .ranges(bytesFetched: 0, requests: 0, entriesFetched: 0, entriesKept: kept))
        #expect(bed.bundleTraffic("m/m.zip").requests == before, "not one bundle request")
        let issue = try #require(await library.issue(named: "m"))
        #expect(issue.status == .available && !issue.hasUpdate)
        #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        #expect(try await library.update("m") == .upToDate)
    }

    /// A page leaves the bundle and nothing else changes (a page class's property turned from
    /// `file` to `string` does this to an attachment).
    @Test func aBundleThatOnlyDropsAnEntryCompletes() async throws {
        try await ScriptedBed.with { bed in
            let (library, _) = try await Self.downloaded(bed)
            let before = bed.bundleTraffic("m/m.zip").requests
            try bed.publishIndexed([ScriptedBed.paged("m", Array(Self.twelve.dropLast()))])
            #expect(try await library.refresh().contentUpdates == ["m"])
            try await Self.expectCompletedWithoutARequest(library, bed, kept: 13, before: before)
            let content = try #require(await library.issue(named: "m")).contentURL
            #expect(!FileManager.default.fileExists(atPath: content.appendingPathComponent("page-12.png").path))
        }
    }

    /// The spool of ranges cannot be written (something else holds its name): the update says so
    /// and downloads the whole bundle.
    @Test func aRangesPathThatFailsHereFallsBackToAWholeDownload() async throws {
        try await ScriptedBed.with { bed in
            let (library, _) = try await Self.downloaded(bed)
            var pages = Self.twelve
            pages[4].seed = 99
            try bed.publishIndexed([ScriptedBed.paged("m", pages)])
            #expect(try await library.refresh().contentUpdates == ["m"])
            let spool = bed.libraryFolder.appendingPathComponent("Downloads/m.ranges")
            try FileManager.default.createDirectory(at: spool, withIntermediateDirectories: false)
            let result = try await library.update("m")
            guard case .full(.rangesFailed(let reason)) = result else {
                Issue.record("not a whole download after the ranges failed: \(result)")
                return
            }
            #expect(reason.contains("m.ranges"), "\(reason)")
            try FileManager.default.removeItem(at: spool)
            let issue = try #require(await library.issue(named: "m"))
            #expect(issue.status == .available && !issue.hasUpdate)
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }
}
