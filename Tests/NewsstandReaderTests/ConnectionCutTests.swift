import Foundation
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Failures nginx cannot produce: a proxy in front of it cuts every response after a few
/// hundred KB, the way a flaky mobile connection does.
@Suite("Cut connections", .timeLimit(.minutes(1)), .tags(.needsServer))
struct ConnectionCutTests {
    /// A TCP proxy to nginx that closes each connection after `cut` bytes of response.
    static func cuttingProxy(upstream: Int, cut: Int) throws -> PythonServer {
        try PythonServer(
            script: PythonServer.script("cutting_proxy.py"), arguments: [String(upstream), String(cut)])
    }

    @Test(arguments: Transport.allCases) func aDownloadCutAgainAndAgainResumesToTheEnd(transport: Transport) async throws {
        try await Testbed.with { bed in
            var entries = try bed.publish([.init("f-1", day: 1, normal: DownloadTests.bigBundle)])
            let proxy = try Self.cuttingProxy(upstream: bed.nginx.port, cut: 400_000)
            defer { proxy.stop() }
            entries[0].content = "http://127.0.0.1:\(proxy.port)/f-1/f-1.zip"
            try bed.writeCatalog(entries)
            let library = try bed.library(transport: transport) { $0.maxAttempts = 10 }
            try await library.refresh(from: bed.catalogURL)

            let issue = try await library.download("f-1")
            #expect(issue.status == .available)
            let image = try Data(contentsOf: issue.contentURL.appendingPathComponent("1-0.png"))
            #expect(image == (try ZipFixture.randomBytes(count: 1_500_000, seed: 5)))

            // Each attempt continued where the last was cut: a plain GET, then ranges that grow.
            let requests = bed.requests("f-1/f-1.zip", atLeast: 4)
            #expect(requests.count >= 4)
            #expect(requests.first?.range == nil)
            let starts = requests.dropFirst().compactMap { $0.range.flatMap { Int($0.dropFirst(6).dropLast()) } }
            #expect(starts.count == requests.count - 1)
            #expect(starts == starts.sorted() && Set(starts).count == starts.count)
            #expect(requests.dropFirst().allSatisfy { $0.status == 206 })
        }
    }
}
