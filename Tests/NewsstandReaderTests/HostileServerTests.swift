import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Servers that lie about sizes, send without end, or drip: every answer ends in a typed error
/// within the configured limits, and leaves nothing behind. Each test runs on both transports
/// (libcurl, the Linux default, and URLSession, the Apple one).
@Suite("Hostile servers", .timeLimit(.minutes(1)), .tags(.needsServer))
struct HostileServerTests {
    /// A testbed plus a lying server serving the same files as its nginx.
    static func with(_ body: (Testbed, LyingServer) async throws -> Void) async throws {
        try await Testbed.with { bed in
            let liar = try LyingServer(root: bed.nginx.root)
            defer { liar.stop() }
            try await body(bed, liar)
        }
    }

    static func library(_ bed: Testbed, _ transport: Transport, _ configure: (inout LibraryConfiguration) -> Void = { _ in })
        throws -> IssueLibrary
    {
        try bed.library(transport: transport, configure)
    }

    static let transports = Transport.allCases

    @Test(arguments: transports)
    func aGzipBombCatalogIsCutAtItsDecodedSize(transport: Transport) async throws {
        try await Self.with { bed, liar in
            let library = try Self.library(bed, transport) { $0.maxCatalogBytes = 1 << 20 }
            let url = liar.baseURL.appendingPathComponent("gzip-bomb/issues.plist")
            await #expect(throws: LibraryError.catalogTooLarge(url: url.absoluteString, limit: 1 << 20)) {
                try await library.refresh(from: url)
            }
            #expect(await library.issues.isEmpty)
            #expect(await library.catalogURL == nil, "nothing of the catalog was kept")
        }
    }

    @Test(arguments: transports)
    func aCatalogLargerThanTheLimitIsRefused(transport: Transport) async throws {
        try await Self.with { bed, _ in
            let base = bed.nginx.baseURL.absoluteString
            try bed.writeCatalog(
                (1...200).map {
                    CatalogEntry(
                        name: "i-\($0)", title: "Issue \($0)", date: Date(timeIntervalSince1970: Double($0) * 86_400),
                        cover: base + "i-\($0)/cover.png", content: base + "i-\($0)/i-\($0).zip")
                })
            let library = try Self.library(bed, transport) { $0.maxCatalogBytes = 20_000 }
            await #expect(throws: LibraryError.catalogTooLarge(url: bed.catalogURL.absoluteString, limit: 20_000)) {
                try await library.refresh(from: bed.catalogURL)
            }
            #expect(await library.issues.isEmpty)
        }
    }

    @Test(arguments: transports)
    func anEndlessCoverIsNotKept(transport: Transport) async throws {
        try await Self.with { bed, liar in
            var entries = try bed.publish([.init("f-1", day: 1), .init("f-2", day: 2)])
            let cover = liar.baseURL.appendingPathComponent("endless/cover.png").absoluteString
            entries[0].cover = cover
            entries[0].coverSHA256 = nil
            try bed.writeCatalog(entries)
            let library = try Self.library(bed, transport) { $0.maxCoverBytes = 100_000 }
            let result = try await library.refresh(from: bed.catalogURL)
            #expect(result.added == ["f-1", "f-2"], "the issue is kept without its cover")
            #expect(result.problems == [.coverTooLarge(name: entries[0].name, url: cover, limit: 100_000)])
            let covers = try FileManager.default.contentsOfDirectory(
                atPath: bed.libraryFolder.appendingPathComponent("Covers").path)
            #expect(covers == ["\(entries[1].name).png"], "no part of the endless cover is left")
            #expect(await library.issue(named: entries[0].name)?.coverFileURL == nil)
        }
    }

    /// The catalog says 4 KB; the server announces 200 MB, or announces nothing and sends
    /// without end. The transfer stops at once, is not retried, and the partial file is gone.
    @Test(arguments: transports, ["209715200", "none"])
    func aBundleLargerThanTheCatalogStatesIsCutAtOnce(transport: Transport, declared: String) async throws {
        try await Self.with { bed, liar in
            var entries = try bed.publish([.init("f-1", day: 1)])
            let size = try #require(entries[0].contentSize)
            let content = liar.baseURL.absoluteString + "endless/f-1.zip?declared=\(declared)"
            entries[0].content = content
            try bed.writeCatalog(entries)
            let library = try Self.library(bed, transport)
            try await library.refresh(from: bed.catalogURL)
            await #expect(throws: LibraryError.downloadTooLarge(name: "f-1", url: content, limit: Int64(size))) {
                try await library.download("f-1")
            }
            let requests = liar.requests(for: "/endless/f-1.zip")
            #expect(requests.count == 1, "not retried")
            if transport == .platformDefault {
                // Not asserted for URLSession on Linux: FoundationNetworking keeps reading (and
                // dropping) a cancelled task's body until the server stops, hundreds of MB on
                // loopback, though the task has ended and nothing more is written.
                #expect(requests.allSatisfy { $0.bytesSent < 32 << 20 }, "cut long before the end: \(requests)")
            }
            let downloads = try FileManager.default.contentsOfDirectory(
                atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
            #expect(downloads.isEmpty, "the partial file is deleted")
            #expect(await library.issue(named: "f-1")?.status == IssueStatus.none)
        }
    }

    @Test(arguments: transports)
    func aDrippedCatalogStalls(transport: Transport) async throws {
        try await Self.with { bed, liar in
            try bed.publish([.init("f-1", day: 1)])
            let library = try Self.library(bed, transport) {
                $0.stallTimeout = 1
                $0.minimumSpeed = 100
            }
            let url = liar.baseURL.appendingPathComponent("drip/issues.plist")
            await #expect(throws: LibraryError.catalogStalled(url: url.absoluteString)) {
                try await library.refresh(from: url)
            }
            #expect(await library.issues.isEmpty)
        }
    }

    /// Fast enough for the minimum rate, but endless: the deadline ends it.
    @Test(arguments: transports)
    func aCatalogThatNeverEndsMissesTheDeadline(transport: Transport) async throws {
        try await Self.with { bed, liar in
            let library = try Self.library(bed, transport) {
                $0.requestTimeout = 1.5
                // Longer than the deadline: a server starved by a loaded machine must not look
                // stalled before the deadline this test is about.
                $0.stallTimeout = 5
                $0.minimumSpeed = 100
            }
            let url = URL(string: liar.baseURL.absoluteString + "endless/issues.plist?chunk=2048&interval=0.02")!
            await #expect(throws: LibraryError.catalogTimedOut(url: url.absoluteString, seconds: 1.5)) {
                try await library.refresh(from: url)
            }
        }
    }

    /// A library whose issue `f-1` is served by the lying server's drip (`query` tunes it), its
    /// catalog already fetched, opened with a 4 s stall window, 1000 B/s and 3 attempts.
    ///
    /// The catalog comes with the default limits: under the ones here, a catalog smaller than a
    /// window's 4000 bytes must arrive whole within the window, which a loaded machine does not
    /// always manage. The library reopened keeps what it fetched. The window is 4 s, not 1: on a
    /// loaded machine URLSession's request did not always reach the server within 1 s (that
    /// attempt stalled unseen by it), and FoundationNetworking delivered a head more than 2 s
    /// after the request (an attempt that must write bytes for the next to resume wrote none).
    /// A drip of 200 B/s stays far below the minimum rate, so every attempt still stalls.
    static func drippedLibrary(
        _ bed: Testbed, _ liar: LyingServer, _ transport: Transport, query: String,
        _ configure: (inout LibraryConfiguration) -> Void = { _ in }
    ) async throws -> (library: IssueLibrary, content: String) {
        var entries = try bed.publish([.init("f-1", day: 1)])
        let content = liar.baseURL.absoluteString + "drip/f-1/f-1.zip?" + query
        entries[0].content = content
        try bed.writeCatalog(entries)
        let opener = try Self.library(bed, transport)
        try await opener.refresh(from: bed.catalogURL)
        await opener.close()
        let tight = try Self.library(bed, transport) {
            $0.stallTimeout = 4
            $0.minimumSpeed = 1000
            $0.maxAttempts = 3
            configure(&$0)
        }
        return (tight, content)
    }

    /// A bundle dripped below the minimum rate is cut, and each retry resumes where the last
    /// attempt stopped.
    @Test(arguments: transports)
    func aDrippedBundleIsRetriedWithResume(transport: Transport) async throws {
        try await Self.with { bed, liar in
            let (library, content) = try await Self.drippedLibrary(bed, liar, transport, query: "chunk=50&interval=0.25")
            await #expect(throws: LibraryError.downloadStalled(name: "f-1", url: content)) {
                try await library.download("f-1")
            }
            let requests = liar.requests(for: "/drip/f-1/f-1.zip", atLeast: 3)
            try #require(requests.count == 3)
            #expect(requests[0].range == nil)
            let starts = requests.dropFirst().compactMap { $0.range.flatMap { Int($0.dropFirst(6).dropLast()) } }
            #expect(starts.count == 2 && starts[0] > 0 && starts[1] > starts[0], "each retry resumes: \(requests)")
            let part = bed.libraryFolder.appendingPathComponent("Downloads/f-1.zip.part")
            #expect(FileStatus.size(of: part).map { $0 > Int64(starts[1]) } == true, "the partial file is kept for a resume")
        }
    }

    /// A 206 whose `Content-Range` starts elsewhere than where the partial file ends (here 7
    /// bytes later) cannot continue it: it is refused, and the next attempt starts from zero.
    @Test(arguments: transports)
    func aPartialAnswerThatStartsElsewhereIsRefusedAndRestarted(transport: Transport) async throws {
        try await Self.with { bed, liar in
            let log = LogLines()
            let (library, content) = try await Self.drippedLibrary(bed, liar, transport, query: "chunk=50&interval=0.25&skew=7") {
                // The second answer is refused when its head is read, and that must come before
                // the stall rule can cut it: 2 s was not always enough on a loaded 2-core
                // machine (FoundationNetworking delivered the head late, and the answer was
                // cut as stalled, the reason logged "stalled").
                $0.stallTimeout = 6
                $0.retryDelay = 0.1
                $0.log = .lines(minimumLevel: .debug, log.append)
            }
            await #expect(throws: LibraryError.downloadStalled(name: "f-1", url: content)) {
                try await library.download("f-1")
            }
            let requests = liar.requests(for: "/drip/f-1/f-1.zip", atLeast: 3)
            try #require(requests.count == 3, "\(requests)")
            #expect(
                requests.map { $0.range != nil } == [false, true, false], "the refused answer restarts from zero: \(requests)")
            #expect(log.lines.contains { $0.contains("Content-Range does not continue the partial file") }, "\(log.lines)")
        }
    }

    @Test(arguments: transports)
    func unsupportedURLsFailAtOnceWithoutRetries(transport: Transport) async throws {
        try await Self.with { bed, _ in
            var entries = try bed.publish([.init("ftp", day: 1), .init("nohost", day: 2)])
            entries[0].content = "ftp://127.0.0.1/ftp.zip"
            entries[1].content = "http:///nohost.zip"
            try bed.writeCatalog(entries)
            let log = LogLines()
            let library = try Self.library(bed, transport) {
                $0.log = .lines(minimumLevel: .debug, log.append)
                $0.retryDelay = 5
            }
            let ftpCatalog = URL(string: "ftp://127.0.0.1/issues.plist")!
            await #expect(
                throws: LibraryError.unsupportedURL(
                    url: ftpCatalog.absoluteString, reason: "only http and https URLs can be fetched")
            ) {
                try await library.refresh(from: ftpCatalog)
            }
            try await library.refresh(from: bed.catalogURL)
            await #expect(
                throws: LibraryError.unsupportedURL(
                    url: "ftp://127.0.0.1/ftp.zip", reason: "only http and https URLs can be fetched")
            ) {
                try await library.download("ftp")
            }
            await #expect(throws: LibraryError.unsupportedURL(url: "http:///nohost.zip", reason: "the URL has no host")) {
                try await library.download("nohost")
            }
            #expect(log.lines.filter { $0.contains("attempt") }.count == 2, "one attempt each: \(log.lines)")
        }
    }
}

/// Collects the library's log lines from any thread.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var append: @Sendable (String) -> Void { { line in self.lock.withLock { self.stored.append(line) } } }
    var lines: [String] { lock.withLock { stored } }
}
