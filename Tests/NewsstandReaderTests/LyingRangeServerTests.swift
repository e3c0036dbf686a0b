import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Servers that answer `Range` requests wrongly (issue 14), from a small Python server over the
/// same files nginx serves: a multipart body with another boundary than announced, a 206 for
/// another range than asked, a 206 body longer than its range. Each answer is refused; the update
/// goes one range per request or downloads the whole bundle, and the issue is never a mix.
@Suite("Lying range servers", .timeLimit(.minutes(1)), .tags(.needsServer))
struct LyingRangeServerTests {
    static let script = PythonServer.script("lying_range_server.py")

    /// Publishes, downloads from nginx, publishes an update with two distant pages changed and
    /// points the catalog's bundle and index at the lying server; returns the library, refreshed.
    static func prepare(
        _ bed: Testbed, _ server: PythonServer, _ configure: (inout LibraryConfiguration) -> Void = { _ in }
    ) async throws -> IssueLibrary {
        let pages = (1...12).map { (page: $0, seed: $0) }
        try bed.publishIndexed([Testbed.paged("m", pages)])
        let library = try bed.library(configure)
        try await library.refresh(from: bed.catalogURL)
        try await library.download("m")
        let changed = pages.map { $0.page == 2 || $0.page == 10 ? (page: $0.page, seed: $0.seed + 100) : $0 }
        var entries = try bed.publishIndexed([Testbed.paged("m", changed)])
        let base = "http://127.0.0.1:\(server.port)/m/"
        entries[0].content = base + "m.zip"
        entries[0].contentIndex = base + "m.index.json"
        try bed.writeCatalog(entries)
        #expect(try await library.refresh().contentUpdates == ["m"])
        return library
    }

    static func expectNewVersion(_ library: IssueLibrary, _ bed: Testbed) async throws {
        let issue = try #require(await library.issue(named: "m"))
        #expect(issue.status == .available && !issue.hasUpdate)
        let check = try Shell.python(
            """
            import os, sys, zipfile
            z = zipfile.ZipFile(sys.argv[2])
            bad = [i.filename for i in z.infolist() if open(os.path.join(sys.argv[1], i.filename), "rb").read() != z.read(i)]
            print(",".join(bad))
            """, [issue.contentURL.path, bed.nginx.root.appendingPathComponent("m/m.zip").path])
        #expect(check.stdout == "\n", "\(check.stdout)\(check.stderr)")
    }

    @Test(arguments: ["badboundary", "wrongpart"])
    func aBadMultipartBodyIsAskedAgainOneRangePerRequest(mode: String) async throws {
        try await Testbed.with { bed in
            let server = try PythonServer(script: Self.script, arguments: [bed.nginx.root.path, mode])
            let library = try await Self.prepare(bed, server)
            let result = try await library.update("m")
            guard case .ranges(_, let requests, let fetched, let kept) = result else {
                Issue.record("not by ranges: \(result)")
                return
            }
            #expect(requests == 3 && fetched == 2 && kept == 12, "one refused multipart, then two single ranges")
            try await Self.expectNewVersion(library, bed)
            #expect(server.stopAndReadOutput() == ["\(mode) 2", "\(mode) 1", "\(mode) 1"])
        }
    }

    @Test func a206ForAnotherRangeIsRefused() async throws {
        try await Testbed.with { bed in
            let server = try PythonServer(script: Self.script, arguments: [bed.nginx.root.path, "wrongrange"])
            let library = try await Self.prepare(bed, server)
            guard case .full(.badRangeResponse(let reason)) = try await library.update("m") else {
                Issue.record("a wrong Content-Range was used")
                return
            }
            #expect(reason.contains("asked bytes ") && reason.contains("the 206 says 'bytes "), "\(reason)")
            try await Self.expectNewVersion(library, bed)
            server.stop()
        }
    }

    @Test func a206BodyLongerThanItsRangeIsCut() async throws {
        try await Testbed.with { bed in
            let server = try PythonServer(script: Self.script, arguments: [bed.nginx.root.path, "longer"])
            let library = try await Self.prepare(bed, server)
            guard case .full(.badRangeResponse(let reason)) = try await library.update("m") else {
                Issue.record("a body longer than its range was used")
                return
            }
            #expect(reason.contains("larger than the limit of"), "\(reason)")
            try await Self.expectNewVersion(library, bed)
            server.stop()
        }
    }

    /// A 206 that drips a few bytes and stops: the download's stall rule cuts each attempt, and
    /// after the retries the update downloads the whole bundle.
    @Test func aDrippingRangeIsCutByTheStallRule() async throws {
        try await Testbed.with { bed in
            let server = try PythonServer(script: Self.script, arguments: [bed.nginx.root.path, "drip"])
            let library = try await Self.prepare(bed, server) {
                $0.stallTimeout = 1
                $0.minimumSpeed = 1000
                $0.maxAttempts = 2
            }
            guard case .full(.badRangeResponse(let reason)) = try await library.update("m") else {
                Issue.record("a dripping range was waited for")
                return
            }
            #expect(reason.contains("stalled"), "\(reason)")
            try await Self.expectNewVersion(library, bed)
            server.stop()
        }
    }
}
