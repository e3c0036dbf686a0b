import Foundation
import NewsstandFormat

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches `issues.plist` with a conditional GET, so that an unchanged catalog costs a 304.
struct CatalogClient: Sendable {
    /// What the server sent: a new catalog with its validators, or "not modified".
    enum Response: Sendable {
        case notModified
        case modified(Data, etag: String?, lastModified: String?)
    }

    let session: URLSession

    init(stallTimeout: TimeInterval) {
        let configuration = URLSessionConfiguration.ephemeral
        // The library does its own conditional GET; a URL cache would answer 304s itself.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = stallTimeout
        session = URLSession(configuration: configuration)
    }

    func fetch(_ url: URL, etag: String?, lastModified: String?) async throws(LibraryError) -> Response {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .catalogUnavailable(url: url.absoluteString, reason: error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else {
            return .modified(data, etag: nil, lastModified: nil)
        }
        switch http.statusCode {
        case 304:
            return .notModified
        case 200..<300:
            return .modified(
                data, etag: http.value(forHTTPHeaderField: "ETag"),
                lastModified: http.value(forHTTPHeaderField: "Last-Modified"))
        default:
            throw .catalogHTTPStatus(url: url.absoluteString, status: http.statusCode)
        }
    }

    /// Downloads a small file (a cover) into memory.
    func fetchFile(_ url: URL) async throws -> Data {
        let (data, response) = try await session.data(from: url)
        if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
            throw HTTPStatusError(status: http.statusCode)
        }
        return data
    }
}

/// A non-2xx answer to a plain GET.
struct HTTPStatusError: Error, CustomStringConvertible {
    var status: Int
    var description: String { "HTTP \(status)" }
}
