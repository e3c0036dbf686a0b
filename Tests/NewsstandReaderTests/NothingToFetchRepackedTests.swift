import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// `NothingToFetchTests`' case of a bundle holding the same files deflated where they were
/// stored (every record moves, no file changes): repacked with Python's zipfile, on nginx.
@Suite("Nothing to fetch in a repacked bundle", .timeLimit(.minutes(1)), .tags(.needsServer))
struct NothingToFetchRepackedTests {
    static let twelve = NothingToFetchTests.twelve

    /// Publishes twelve pages, downloads them, and returns the library and the catalog entries.
    static func downloaded(_ bed: Testbed) async throws -> (IssueLibrary, [CatalogEntry]) {
        let entries = try bed.publishIndexed([Testbed.paged("m", twelve)])
        let library = try bed.library()
        try await library.refresh(from: bed.catalogURL)
        try await library.download("m")
        return (library, entries)
    }

    /// The update went by ranges without a bundle request, and the library holds the served bundle.
    static func expectCompletedWithoutARequest(
        _ library: IssueLibrary, _ bed: Testbed, kept: Int, before: [LoggedRequest]
    ) async throws {
        #expect(await library.issue(named: "m")?.updateBytes == 0, "list shows an update of 0 bytes")
        #expect(try await library.update("m") == .ranges(bytesFetched: 0, requests: 0, entriesFetched: 0, entriesKept: kept))
        #expect(bed.bundleTraffic("m/m.zip").requests == before, "not one bundle request")
        let issue = try #require(await library.issue(named: "m"))
        #expect(issue.status == .available && !issue.hasUpdate)
        #expect(try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false) == [])
        #expect(try await library.update("m") == .upToDate)
    }

    /// The same files deflated where they were stored: every record moves, no file changes.
    @Test(arguments: [1, 9])
    func aBundleRepackedWithAnotherCompressionCompletes(level: Int) async throws {
        try await Testbed.with { bed in
            let (library, entries) = try await Self.downloaded(bed)
            let before = bed.bundleTraffic("m/m.zip").requests
            try bed.repack(entries, compression: "deflated", level: level)
            #expect(try await library.refresh().contentUpdates == ["m"])
            try await Self.expectCompletedWithoutARequest(library, bed, kept: 14, before: before)
        }
    }
}
