import Foundation

/// One GET as the library sends it, whichever transport runs it.
struct HTTPRequest: Sendable {
    var url: URL
    /// Extra request headers (`Range`, `If-Range`, `If-None-Match`, …).
    var headers: [String: String] = [:]
    /// Whether the body may come compressed (catalogs, covers): the transport decodes it and
    /// sinks see, and cap, decoded bytes. Bundles ask for `identity`, so that `Range` offsets
    /// are offsets in the file.
    var acceptsCompression: Bool
    var limits: TransferLimits
    var allowsCellularAccess = true

    /// Runs the request, handing the response to `sink`; returns when the body ended and the
    /// sink accepted it. Cancelling the calling task stops the transfer.
    func perform(into sink: some ResponseSink, on transport: HTTPTransport) async throws(TransferFailure) {
        try Self.checkScheme(of: url)
        switch transport {
        #if canImport(CCurl)
            case .curl: try await CurlRequest.perform(self, into: sink)
        #endif
        case .urlSession: try await URLSessionRequest.perform(self, into: sink)
        }
    }

    /// Only http and https with a host: anything else fails at once and is never retried.
    static func checkScheme(of url: URL) throws(TransferFailure) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .unsupportedURL(reason: "only http and https URLs can be fetched")
        }
        guard let host = url.host, !host.isEmpty else { throw .unsupportedURL(reason: "the URL has no host") }
    }
}

/// The HTTP stack that runs the library's requests.
enum HTTPTransport: Sendable, CaseIterable {
    #if canImport(CCurl)
        /// libcurl directly (Linux): bodies are handed over from libcurl's own callback.
        case curl
    #endif
    /// URLSession data tasks (Apple platforms); it builds on Linux too, where tests run it.
    case urlSession

    /// libcurl where it is linked (Linux), URLSession elsewhere.
    static var platformDefault: HTTPTransport {
        #if canImport(CCurl)
            .curl
        #else
            .urlSession
        #endif
    }
}
