import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Covers on demand (issue 12): refresh fetches only the newest issues' covers; the rest come
/// through `cover(of:)`, cached, a few requests at a time. On a scripted transport (the fast
/// tier), whose log counts the requests; the command line's is `CoversOnDemandCommandTests`.
@Suite("Covers on demand", .timeLimit(.minutes(1)))
struct CoversOnDemandTests {
    /// A transport that counts the requests in flight at once (the real one does the work).
    final class CountingTransport: HTTPTransport, @unchecked Sendable {
        let inner: any HTTPTransport
        private let lock = NSLock()
        private var current = 0
        private(set) var highest = 0

        init(_ inner: any HTTPTransport) { self.inner = inner }

        func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure) {
            lock.withLock {
                current += 1
                highest = max(highest, current)
            }
            defer { lock.withLock { current -= 1 } }
            try await inner.perform(request, into: sink)
        }

        var peak: Int { lock.withLock { highest } }
    }

    static func coverRequests(_ bed: ScriptedBed) -> [String] {
        bed.allRequests().filter { $0.uri.hasSuffix("/cover.png") }.map(\.uri).sorted()
    }

    @Test func refreshFetchesOnlyTheNewestCoversAndTheRestOnDemand() async throws {
        try await ScriptedBed.with { bed in
            // Covers and catalog entries only: no issue here is downloaded.
            let count = 120
            let entries = (1...count).map { day -> CatalogEntry in
                let name = String(format: "i-%03d", day)
                bed.serve(Data("cover \(name)".utf8), at: "\(name)/cover.png")
                let base = bed.baseURL.absoluteString + name + "/"
                return CatalogEntry(
                    name: name, title: name, date: Date(timeIntervalSince1970: Double(day) * 86_400), cover: base + "cover.png",
                    content: base + name + ".zip")
            }
            try bed.writeCatalog(entries)
            let counting = CountingTransport(bed.transport)
            let library = try bed.library {
                $0.coversFetchedOnRefresh = 5
                $0.maxConcurrentCoverRequests = 3
                $0.transport = counting
            }
            let result = try await library.refresh(from: bed.catalogURL)
            #expect(result.added.count == count)
            let newest = (116...120).map { String(format: "/i-%03d/cover.png", $0) }
            #expect(Self.coverRequests(bed) == newest, "five cover requests for a 120-issue catalog")
            let issues = await library.issues
            #expect(issues.prefix(5).allSatisfy { $0.coverFileURL != nil })
            #expect(issues.dropFirst(5).allSatisfy { $0.coverFileURL == nil })

            // An old cover on demand: fetched once, then cached; callers at once share a request.
            async let first = library.cover(of: "i-007")
            async let second = library.cover(of: "i-007")
            let (a, b) = try await (first, second)
            #expect(a == b)
            #expect(try String(contentsOf: a, encoding: .utf8) == "cover i-007")
            #expect(try await library.cover(of: "i-007") == a)
            #expect(bed.requests("i-007/cover.png").count == 1)
            #expect(await library.issue(named: "i-007")?.coverFileURL == a)

            // Many at once: every one arrives, never more than three requests in flight.
            let names = (20...59).map { String(format: "i-%03d", $0) }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in names { group.addTask { _ = try await library.cover(of: name) } }
                try await group.waitForAll()
            }
            #expect(counting.peak <= 3)
            #expect(Self.coverRequests(bed).count == 5 + 1 + names.count)

            // An unchanged refresh fetches nothing; a cover kept after a reopen is not fetched again.
            await library.close()
            let reopened = try bed.library { $0.coversFetchedOnRefresh = 5 }
            #expect(try await reopened.refresh().notModified)
            #expect(try await reopened.cover(of: "i-030") == a.deletingLastPathComponent().appendingPathComponent("i-030.png"))
            #expect(Self.coverRequests(bed).count == 5 + 1 + names.count)
        }
    }

    @Test func aMissingCoverIsATypedErrorAndAnUnknownIssueToo() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            bed.remove("a/cover.png")
            let library = try bed.library { $0.coversFetchedOnRefresh = 0 }
            try await library.refresh(from: bed.catalogURL)
            #expect(Self.coverRequests(bed).isEmpty)
            let url = bed.baseURL.absoluteString + "a/cover.png"
            await #expect(throws: LibraryError.coverNotFetched(.coverUnavailable(name: "a", url: url, reason: "HTTP 404"))) {
                try await library.cover(of: "a")
            }
            await #expect(throws: LibraryError.unknownIssue(name: "zz")) { try await library.cover(of: "zz") }
            await library.close()
        }
    }
}
