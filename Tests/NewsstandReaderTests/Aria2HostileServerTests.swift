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

    /// The catalog says 300 bytes and the server sends 10 GiB (issue 35, item 1): with no
    /// process of ours polling the engine, the daemon stops writing a little past the largest
    /// size its jobs' catalogs state (its file-size limit), and the download fails; the next
    /// look reports it too large and deletes it.
    @Test func anUnattendedDaemonStopsWritingPastTheCatalogsSize() async throws {
        try await Aria2Bed.with { bed in
            let huge = bed.nginx.root.appendingPathComponent("e-1.zip")
            #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
            let handle = try FileHandle(forWritingTo: huge)
            try handle.truncate(atOffset: 10 << 30)  // sparse: no disk used
            try handle.close()
            let engine = bed.engine()
            let job = Aria2EngineTests.job("e-1", 1, bed.nginx.baseURL.appendingPathComponent("e-1.zip"), size: 300)
            try await engine.start(job)
            // Neither `report()` nor a sink: nothing of ours looks. nginx logs the request once
            // aria2 hangs up; without the limit the file grows past 64 MiB first.
            let tooMuch: Int64 = 64 << 20
            try await eventually("aria2 stops") {
                bed.nginx.requests().contains { $0.uri == "/e-1.zip" } || (fileSize(bed, "e-1#1") ?? 0) > tooMuch
            }
            let written = fileSize(bed, "e-1#1") ?? 0
            #expect(written <= 300 + Aria2Daemon.fileSizeMargin, "\(written) bytes written for a 300-byte issue")
            #expect(try await engine.report()[job.id] == .failed(.tooLarge(limit: 300), resumable: false))
            #expect(fileSize(bed, "e-1#1") == nil, "the bytes are deleted")
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
