import Foundation

/// An HTTP server that lies, for the answers a reader must survive and nginx will not give.
/// It serves files below `root` (usually a test nginx's root, so the same bundles and catalogs
/// are reachable both ways) and logs one line per request to a file.
///
/// Paths (the query string tunes each):
/// - `/gzip-bomb/<name>?size=N&fill=space|zero`: `Content-Encoding: gzip` of an XML plist
///   prefix followed by `fill` up to N decoded bytes (default 4 GiB), about 1/1000 of that on
///   the wire.
/// - `/drip/<file>?chunk=N&interval=S`: the file below `root`, N bytes (default 1) every S
///   seconds (default 1), with `Content-Length`, a strong `ETag` and `Range`/`If-Range`;
///   `skew=N` answers a range N bytes later than the one asked for (saying so in `Content-Range`).
/// - `/endless/<name>?declared=N|none&chunk=N&interval=S&cap=N`: an XML plist prefix and then
///   spaces without end (up to `cap` bytes, default 64 MiB, far above any test's limit, so that
///   a client that never stops reading cannot keep the machine busy), announced as
///   `Content-Length: N` (or close-delimited); `chunk` bytes every `interval` seconds (default:
///   64 KiB as fast as the socket takes it).
/// - `/hold/<file>`: the file's first half at once, the rest only after `<root>/.release` exists.
public final class LyingServer: Sendable {
    private let server: PythonServer
    private let log: URL
    public let root: URL
    public var port: Int { server.port }
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// One logged request: what was asked and how many body bytes the server managed to send.
    public struct Request: Equatable, Sendable {
        public var path: String
        /// The `Range` header, nil when there was none.
        public var range: String?
        public var bytesSent: Int
    }

    public init(root: URL) throws {
        self.root = root
        log = try Shell.temporaryFolder("lying-server").appendingPathComponent("requests.log")
        try Data().write(to: log)
        server = try PythonServer(script: Self.script, arguments: [root.path, log.path])
    }

    public func stop() { server.stop() }

    /// Lets every `/hold/` response finish.
    public func release() throws {
        try Data().write(to: root.appendingPathComponent(".release"))
    }

    /// Requests that have ended, waiting up to 10 s for at least `count` of them for `path`.
    public func requests(for path: String, atLeast count: Int = 1) -> [Request] {
        let deadline = Date().addingTimeInterval(10)
        while true {
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            let matching = lines.compactMap { line -> Request? in
                let parts = line.split(separator: " ")
                guard parts.count == 3, parts[0] == path, let sent = Int(parts[2]) else { return nil }
                return Request(path: String(parts[0]), range: parts[1] == "-" ? nil : String(parts[1]), bytesSent: sent)
            }
            if matching.count >= count || Date() > deadline { return matching }
            usleep(20_000)
        }
    }

    private static let script = PythonServer.script("lying_server.py")
}
