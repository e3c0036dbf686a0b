import Foundation

/// The publisher's entitlement service of the tests (`entitlement_service.py`, on a free
/// loopback port): `GET /sign?url=<URL>` with `Authorization: Bearer <token>` answers the URL
/// signed for nginx's `secure_link` when the token is entitled to the issue, 401 for an unknown
/// token, 403 for one that is not entitled, 400 for a URL that is not a paid issue's file. It
/// signs with its own implementation of the formula (Python's hashlib), so agreeing with
/// `SignedURL` is something a test can check.
public final class EntitlementService: @unchecked Sendable {  // safe: the server starts in init, then is only stopped
    private let server: PythonServer
    /// The port it listens on.
    public var port: Int { server.port }
    /// `http://127.0.0.1:<port>/sign`.
    public var signURL: URL { URL(string: "http://127.0.0.1:\(port)/sign")! }

    /// Starts the service: `secretFile` holds the host's secret, `paidBase` is the magazine's
    /// `<BaseURL>paid/`, `tokens` the issues each token is entitled to (`"*"`: every one),
    /// `lifetime` the longest a link it signs works, in seconds.
    public init(secretFile: URL, paidBase: String, tokens: [String: [String]], lifetime: Int = 300) throws {
        let config = try Shell.temporaryFolder("entitlement").appendingPathComponent("config.json")
        let settings: [String: Any] = [
            "secret_file": secretFile.path, "paid_base": paidBase, "tokens": tokens, "lifetime": lifetime,
        ]
        try JSONSerialization.data(withJSONObject: settings).write(to: config)
        server = try PythonServer(
            file: Shell.repositoryRoot.appendingPathComponent("Tests/NewsstandTestSupport/entitlement_service.py"),
            arguments: [config.path])
    }

    /// Stops the service.
    public func stop() { server.stop() }

    /// Stops the service and returns its request log: one `<status> <issue or -> <token label>`
    /// line per request (it never logs a token or the secret).
    public func stopAndReadLog() -> [String] { server.stopAndReadOutput() }

    /// Asks for a link to `url` with `token` (none: no `Authorization` header), through curl:
    /// the status and the body's first line.
    public func link(for url: String, token: String?, lifetime: Int? = nil) throws -> (status: Int, body: String) {
        var components = URLComponents(url: signURL, resolvingAgainstBaseURL: false)
        components?.queryItems =
            [URLQueryItem(name: "url", value: url)] + (lifetime.map { [URLQueryItem(name: "lifetime", value: String($0))] } ?? [])
        guard let request = components?.url?.absoluteString else { throw TestFailure("cannot make the request URL") }
        let headers = token.map { ["-H", "Authorization: Bearer \($0)"] } ?? []
        let result = try Shell.run("curl", ["-s", "-o", "-", "-w", "\n%{http_code}"] + headers + [request])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let status = lines.last.flatMap({ Int($0) }) else { throw TestFailure("curl printed no status: \(result.stdout)") }
        return (status, lines.first ?? "")
    }
}
