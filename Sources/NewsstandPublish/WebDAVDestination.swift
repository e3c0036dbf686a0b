import Foundation
import NewsstandBuild
import NewsstandCore

/// A WebDAV / HTTP PUT endpoint (nginx's dav module, Apache mod_dav, many hosts): `PUT` to
/// upload (streamed from the file and hashed on the way), `MOVE` with `Overwrite: T` to rename,
/// `COPY` to keep a file aside, `DELETE` to remove. Every request is bounded by
/// `PublishTimeouts`; credentials travel only in the `Authorization` header; a 401 or 403 fails
/// at once with how to give credentials.
public struct WebDAVDestination: PublishDestination {
    /// The endpoint's root URL, ending in `/`, without user information.
    public let root: URL
    let credentials: HTTPCredentials?
    public let timeouts: PublishTimeouts
    /// What each file is sent with: its `Content-Type` goes with every `PUT`, which servers
    /// that keep it serve back (nginx's dav module does not: its `types` decide, and its
    /// cache headers come from its configuration, written from the same table in the
    /// reference).
    public let cacheRules: CacheRules
    public var description: String { root.absoluteString }
    public var supportsAtomicMove: Bool { true }

    /// A destination at `root`. User information in `root` is dropped, never sent or printed:
    /// pass credentials explicitly.
    public init(
        root: URL, credentials: HTTPCredentials?, timeouts: PublishTimeouts = PublishTimeouts(),
        cacheRules: CacheRules = CacheRules()
    ) {
        var components = URLComponents(url: root, resolvingAgainstBaseURL: true)
        components?.user = nil
        components?.password = nil
        if let path = components?.percentEncodedPath, !path.hasSuffix("/") { components?.percentEncodedPath = path + "/" }
        self.root = components?.url ?? root
        self.credentials = credentials
        self.timeouts = timeouts
        self.cacheRules = cacheRules
    }

    /// The URL of `path` below the root: every component percent-encoded (a `:`, `?` or `#` in
    /// a name stays part of the name) and appended to the root's text, never resolved as a
    /// relative reference, which could turn `http:x` into a URL of its own.
    func url(_ path: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#:;")
        let escaped = path.split(separator: "/", omittingEmptySubsequences: false).map { component in
            String(component).addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        }
        return root.absoluteString + escaped.joined(separator: "/")
    }

    public func read(_ path: String, limit: Int64) async throws(PublishError) -> Data? {
        var request = HTTPExchange.Request(method: "GET", url: url(path), headers: ["Cache-Control: no-cache"])
        request.bodyLimit = limit
        request.failsBeyondLimit = true
        let response = try await send(request, step: "read", path: path)
        if response.status == 404 { return nil }
        try check(response.status, step: "read", path: path)
        return response.body
    }

    public func upload(_ source: UploadSource, to path: String) async throws(PublishError) {
        try await upload(source, to: path, headers: [])
    }

    /// With a `Date` header: nginx's dav module gives the file that time (`MOVE` and `COPY`
    /// keep it). Servers that set their own times (Apache's mod_dav) ignore it; Apache's `ETag`
    /// has the time in microseconds, so it changes anyway, while its `Last-Modified` alone may
    /// not (a reader that sends only `If-Modified-Since` may then be told 304 within a second).
    public func upload(_ source: UploadSource, to path: String, modified: Int) async throws(PublishError) {
        try await upload(source, to: path, headers: ["Date: \(HTTPDate.format(modified))"])
    }

    /// The `Last-Modified` the server gives `path` (a HEAD); nil when there is no file or no
    /// such header.
    public func modificationTime(of path: String) async throws(PublishError) -> Double? {
        let response = try await send(
            HTTPExchange.Request(method: "HEAD", url: url(path), headers: ["Cache-Control: no-cache"]), step: "read", path: path)
        if response.status == 404 { return nil }
        try check(response.status, step: "read", path: path)
        return response.lastModified.flatMap(HTTPDate.parse)
    }

    private func upload(_ source: UploadSource, to path: String, headers: [String]) async throws(PublishError) {
        let file = try source.open(step: "upload")
        let type = "Content-Type: \(CacheRules.contentType(of: source.path))"
        var request = HTTPExchange.Request(method: "PUT", url: url(path), headers: headers + [type])
        request.upload = (file.descriptor, file.path, source.size)
        let response = try await send(request, step: "upload", path: path)
        withExtendedLifetime(file) {}  // the descriptor stays open until the request is done
        try check(response.status, step: "upload", path: path)
        // The bytes are at `path` by now; ones that are not what the manifest promised go again.
        if let mismatch = source.mismatch(sent: response.sent, sha256: response.sentSHA256, step: "upload") {
            try? await delete(path)
            throw mismatch
        }
    }

    public func move(_ source: String, to destination: String) async throws(PublishError) {
        let request = HTTPExchange.Request(
            method: "MOVE", url: url(source), headers: ["Destination: \(url(destination))", "Overwrite: T"])
        let response = try await send(request, step: "move", path: destination)
        try check(response.status, step: "move", path: destination)
    }

    public func copy(_ source: String, to destination: String) async throws(PublishError) -> Bool {
        let request = HTTPExchange.Request(
            method: "COPY", url: url(source), headers: ["Destination: \(url(destination))", "Overwrite: T"])
        let response = try await send(request, step: "copy", path: source)
        if response.status == 404 { return false }
        try check(response.status, step: "copy", path: source)
        return true
    }

    public func delete(_ path: String) async throws(PublishError) {
        let response = try await send(HTTPExchange.Request(method: "DELETE", url: url(path)), step: "delete", path: path)
        guard response.status != 404 else { return }
        try check(response.status, step: "delete", path: path)
    }

    private func send(_ request: HTTPExchange.Request, step: String, path: String) async throws(PublishError)
        -> HTTPExchange.Response
    {
        var request = request
        if let credentials { request.headers.append("Authorization: \(credentials.authorization)") }
        let timeouts = timeouts
        let prepared = request
        let result = await BlockingWork.run { HTTPExchange.perform(prepared, timeouts: timeouts) }
        switch result {
        case .success(let response): return response
        case .failure(let failure):
            let target = url(path)
            switch failure {
            case .timedOut(let kind, let seconds):
                throw PublishError(step: step, target: target, reason: .timedOut(kind, seconds: seconds))
            case .network(let message):
                throw PublishError(step: step, target: target, reason: .network(Redacted.message(message)))
            case .tooLarge(let limit): throw PublishError(step: step, target: target, reason: .tooLarge(limit: limit))
            case .uploadRead(let error):
                throw .fileSystem(step, error)
            case .uploadShrank(let sent, let size):
                throw PublishError(
                    step: step, target: target, reason: .changedSinceBuild("the file ended after \(sent) of \(size) bytes"))
            }
        }
    }

    /// The method each writing step sends.
    private static let methods = ["upload": "PUT", "move": "MOVE", "copy": "COPY", "delete": "DELETE"]

    private func check(_ status: Int, step: String, path: String) throws(PublishError) {
        switch status {
        case 200..<300: return
        case 401, 403:
            throw PublishError(
                step: step, target: url(path),
                reason: .credentialsRefused(
                    status: status, hint: HTTPCredentials.hint(status: status, host: root.host ?? "", sent: credentials)))
        case 300..<400: throw PublishError(step: step, target: url(path), reason: .redirect(status: status))
        case 405, 501,
            404 where step == "upload":
            // A plain web server (or a read-only location) answers a method it does not take so;
            // and a PUT answered 404 found no WebDAV either (a WebDAV server makes the file, or
            // answers 409 for a missing folder): a location that serves files and refuses the
            // hidden temporary name, as docs/publishing.md's nginx does, answers so.
            let reason = Self.methods[step].map { PublishError.Reason.notWebDAV(method: $0, status: status) }
            throw PublishError(step: step, target: url(path), reason: reason ?? .http(status: status))
        default: throw PublishError(step: step, target: url(path), reason: .http(status: status))
        }
    }
}
