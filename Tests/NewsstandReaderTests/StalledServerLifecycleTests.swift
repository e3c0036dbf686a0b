import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// A download from a server that accepts and never answers: a real socket, a real stall.
@Suite("Library lifecycle on a stalled server", .timeLimit(.minutes(1)), .tags(.needsServer))
struct StalledServerLifecycleTests {
    @Test func aStalledServerTimesOut() async throws {
        try await Testbed.with { bed in
            let server = try StalledServer()
            defer { server.stop() }
            let base = "http://127.0.0.1:\(server.port)/"
            var entry = CatalogEntry(
                name: "s", title: "S", date: Date(), cover: bed.nginx.baseURL.absoluteString + "none.png", content: base + "s.zip"
            )
            entry.contentSize = 100
            try bed.writeCatalog([entry])
            // The catalog comes with the default limits (under a 1 s window a small catalog must
            // arrive whole within a second); the library reopened keeps what it fetched.
            let opener = try bed.library()
            try await opener.refresh(from: bed.catalogURL)
            await opener.close()
            let library = try bed.library {
                $0.stallTimeout = 1
                $0.maxAttempts = 2
            }
            await #expect(throws: LibraryError.downloadStalled(name: "s", url: base + "s.zip")) {
                try await library.download("s")
            }
            #expect(server.connectionCount() == 2, "one retry after the first stall")
        }
    }
}

/// A TCP server that accepts connections and never answers, in a python3 child process.
final class StalledServer: @unchecked Sendable {
    private let server: PythonServer
    var port: Int { server.port }

    init() throws {
        server = try PythonServer(
            script: PythonServer.script("stalled_server.py"))
    }

    /// Connections accepted so far (read after the client is done).
    func connectionCount() -> Int {
        server.stopAndReadOutput().filter { $0 == "accepted" }.count
    }

    func stop() { server.stop() }
}
