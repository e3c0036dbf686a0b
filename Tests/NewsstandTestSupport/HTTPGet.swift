import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One plain HTTP request as a reader makes it, for tests that read what a server or a cache
/// serves: no cache of its own, no redirect followed, every header of the answer kept.
public enum HTTPGet {
    /// An answer: its status, headers (names lowercased) and body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data

        /// A header's value by its name in any case.
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 30
        return URLSession(configuration: configuration)
    }()

    /// Sends `method` to `url` with `headers`.
    public static func send(_ url: URL, method: String = "GET", headers: [String: String] = [:]) async throws -> Response {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw TestFailure("\(url): not an HTTP answer") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Response(status: http.statusCode, headers: fields, body: data)
    }
}
