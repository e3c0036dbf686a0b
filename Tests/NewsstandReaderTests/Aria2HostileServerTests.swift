import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandAria2
@testable import NewsstandReader

/// The aria2 engine against servers that try to send it elsewhere (issue 35): a redirect from
/// http to `ftp://` or `sftp://` (this aria2 has SFTP) must reach no host, as the in-process
/// engine's libcurl keeps redirects to http(s).
@Suite("aria2 against hostile servers", .timeLimit(.minutes(2)), .tags(.needsServer))
struct Aria2HostileServerTests {
    @Test(arguments: ["ftp", "sftp"])
    func aRedirectToAnotherProtocolReachesNoHost(_ scheme: String) async throws {
        try await Aria2Bed.with { bed in
            let host = try LoopbackListener()
            // Without the fix aria2 waits this long for the host's greeting; with it, nothing connects.
            let engine = bed.engine { $0.networkTimeout = 5 }
            let path = "/redirect/\(scheme)/\(host.port)/r-1.zip"
            let job = Aria2EngineTests.job("r-1", 1, try #require(URL(string: path, relativeTo: bed.nginx.baseURL)?.absoluteURL))
            try await engine.start(job)
            try await eventually("aria2 gives up", reportOf: engine) {
                if case .failed = $0[job.id] { true } else { false }
            }
            #expect(bed.nginx.requests(for: path).map(\.status) == [302], "the redirect was followed")
            #expect(!host.wasConnected, "aria2 connected to the \(scheme) host a redirect named")
            await engine.cancel(job.id, keepingData: false)
        }
    }

    /// A redirect to another http server is still followed (a CDN's), so only the scheme is kept.
    @Test func aRedirectToHTTPIsFollowed() async throws {
        try await Aria2Bed.with { bed in
            let bundle = try bed.bundle("r-2")
            let path = "/redirect/http/\(bed.nginx.port)/r-2.zip"
            let engine = bed.engine()
            let job = Aria2EngineTests.job(
                "r-2", 1, try #require(URL(string: path, relativeTo: bed.nginx.baseURL)?.absoluteURL), size: bundle.size)
            try await engine.start(job)
            let sink = RecordingSink(downloads: bed.downloads)
            engine.attach(sink)
            try await eventually("the file is handed over") { sink.finished.count == 1 }
            #expect(try SHA256.hex(ofFileAt: try #require(sink.finished.first).file) == bundle.sha256)
        }
    }
}
