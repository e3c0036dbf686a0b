import Foundation
import NewsstandCore

/// Fetches `issues.plist` with a conditional GET, so that an unchanged catalog costs a 304, and
/// covers; both within the configuration's deadline, rate and size limits.
struct CatalogClient: Sendable {
    /// What the server sent: a new catalog with its validators, or "not modified".
    enum Response: Sendable {
        case notModified
        case modified(entries: [CatalogEntry], problems: [CatalogError], etag: String?, lastModified: String?)
    }

    let configuration: LibraryConfiguration

    /// Fetches and parses the catalog (as it arrives, on the transfer's own thread).
    func fetch(_ url: URL, etag: String?, lastModified: String?) async throws(LibraryError) -> Response {
        var request = Self.request(url, configuration)
        if let etag { request.headers["If-None-Match"] = etag }
        if let lastModified { request.headers["If-Modified-Since"] = lastModified }
        let sink = CatalogSink(limit: configuration.maxCatalogBytes)
        do {
            try await request.perform(into: sink, on: configuration.transport)
        } catch {
            throw Self.error(error, url: url.absoluteString, malformation: sink.malformation)
        }
        if sink.head?.status == 304 { return .notModified }
        guard let catalog = sink.catalog else {
            throw .catalogMalformed(url: url.absoluteString, reason: "no catalog in the answer")
        }
        return .modified(
            entries: catalog.entries, problems: catalog.problems, etag: sink.head?.value("ETag"),
            lastModified: sink.head?.value("Last-Modified"))
    }

    /// Downloads a cover into a new temporary file for `name` in `folder`; returns the file,
    /// not yet under its name, and its SHA-256. On a failure nothing is left.
    func fetchCover(_ url: URL, into folder: OpenFolder, named name: String) async throws(TransferFailure)
        -> (file: AtomicFile, sha256: String)
    {
        let request = Self.request(url, configuration)
        let sink = CoverSink(folder: folder, name: name, limit: configuration.maxCoverBytes, hasher: configuration.hasher)
        do {
            try await request.perform(into: sink, on: configuration.transport)
        } catch {
            sink.discard()
            throw error
        }
        guard let file = sink.file, let sha256 = sink.sha256 else {
            sink.discard()
            throw .badResponse("no cover in the answer")
        }
        return (file, sha256)
    }

    /// A GET of a catalog or a cover: compression allowed, the configuration's request limits.
    private static func request(_ url: URL, _ configuration: LibraryConfiguration) -> HTTPRequest {
        HTTPRequest(url: url, acceptsCompression: true, limits: configuration.requestLimits, policy: configuration.networkPolicy)
    }

    private static func error(_ failure: TransferFailure, url: String, malformation: CatalogError?) -> LibraryError {
        switch failure {
        case .httpStatus(let status): .catalogHTTPStatus(url: url, status: status)
        case .unsupportedURL(let reason): .unsupportedURL(url: url, reason: reason)
        case .tooLarge(let limit): .catalogTooLarge(url: url, limit: limit)
        case .timedOut(let seconds): .catalogTimedOut(url: url, seconds: seconds)
        case .stalled: .catalogStalled(url: url)
        case .rejected: .catalogMalformed(url: url, reason: malformation?.description ?? "not a property list")
        case .networkUnavailable(let reason): .networkUnavailable(url: url, reason: reason)
        case .insecureConnectionRefused(let reason): .insecureConnectionRefused(url: url, reason: reason)
        case .network, .cancelled, .rangeNotSatisfiable, .badResponse, .file, .cancelledBySystem:
            .catalogUnavailable(url: url, reason: failure.description)
        }
    }
}
