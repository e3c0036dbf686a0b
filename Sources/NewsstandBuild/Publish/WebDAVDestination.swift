import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A WebDAV / HTTP PUT endpoint (nginx's dav module, Apache mod_dav, many hosts): `PUT` to
/// upload (streamed from the file), `MOVE` with `Overwrite: T` to rename, `DELETE` to remove.
public struct WebDAVDestination: PublishDestination {
    /// The endpoint's root URL, ending in `/`.
    public var root: URL
    var credentials: HTTPCredentials?
    public var description: String { root.absoluteString }
    public var supportsAtomicMove: Bool { true }

    public init(root: URL, credentials: HTTPCredentials?) {
        self.root = root
        self.credentials = credentials
    }

    func url(_ path: String) -> URL {
        let escaped = path.split(separator: "/").map { component in
            String(component).addingPercentEncoding(
                withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#")))
                ?? String(component)
        }
        return URL(string: escaped.joined(separator: "/"), relativeTo: root)?.absoluteURL ?? root.appendingPathComponent(path)
    }

    private func request(_ method: String, _ path: String) -> URLRequest {
        var request = URLRequest(url: url(path))
        request.httpMethod = method
        request.timeoutInterval = 120
        if let credentials { request.setValue(credentials.authorization, forHTTPHeaderField: "Authorization") }
        return request
    }

    public func read(_ path: String) async throws(PublishError) -> Data? {
        var request = request("GET", path)
        request.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        let (data, status) = try await send(request, step: "read")
        if status == 404 { return nil }
        guard (200..<300).contains(status) else { throw failure("read", path, status) }
        return data
    }

    public func upload(_ file: URL, to path: String) async throws(PublishError) {
        let request = request("PUT", path)
        let status: Int
        do {
            let (_, response) = try await URLSession.shared.upload(for: request, fromFile: file)
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
        } catch {
            throw PublishError(step: "upload", target: url(path).absoluteString, reason: error.localizedDescription)
        }
        guard (200..<300).contains(status) else { throw failure("upload", path, status) }
    }

    public func move(_ source: String, to destination: String) async throws(PublishError) {
        var request = request("MOVE", source)
        request.setValue(url(destination).absoluteString, forHTTPHeaderField: "Destination")
        request.setValue("T", forHTTPHeaderField: "Overwrite")
        let (_, status) = try await send(request, step: "move")
        guard (200..<300).contains(status) else { throw failure("move", destination, status) }
    }

    public func delete(_ path: String) async throws(PublishError) {
        let (_, status) = try await send(request("DELETE", path), step: "delete")
        guard (200..<300).contains(status) || status == 404 else { throw failure("delete", path, status) }
    }

    private func send(_ request: URLRequest, step: String) async throws(PublishError) -> (Data, Int) {
        do {
            let (data, response) = try await URLSession.shared.data(for: request)
            return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
        } catch {
            throw PublishError(step: step, target: request.url?.absoluteString ?? "", reason: error.localizedDescription)
        }
    }

    private func failure(_ step: String, _ path: String, _ status: Int) -> PublishError {
        let hint = status == 401 || status == 403 ? " (check NEWSSTAND_USER / NEWSSTAND_PASSWORD or ~/.netrc)" : ""
        return PublishError(step: step, target: url(path).absoluteString, reason: "HTTP \(status)\(hint)")
    }
}
