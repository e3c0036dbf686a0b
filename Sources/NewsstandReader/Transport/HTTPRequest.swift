import Foundation

/// One GET as the library sends it, whichever transport runs it: a catalog or a cover
/// (conditional headers, compression allowed, a deadline) or a bundle (`Range` + `If-Range`
/// to resume a `.part` file, no compression, no deadline).
public struct HTTPRequest: Sendable, Equatable {
    /// An http or https URL with a host (`checkScheme` refuses anything else before a transport sees it).
    public var url: URL
    /// Extra request headers (`Range`, `If-Range`, `If-None-Match`, `If-Modified-Since`).
    public var headers: [String: String] = [:]
    /// Whether the body may come compressed (catalogs, covers): the transport decodes it and
    /// sinks see, and cap, decoded bytes. Bundles ask for `identity`, so that `Range` offsets
    /// are offsets in the file.
    public var acceptsCompression: Bool
    /// The deadline and minimum rate the transport applies (`TransferWatch`).
    public var limits: TransferLimits
    /// Which networks the request may use, and whether it waits for one (what the transport
    /// can apply of it: `NetworkPolicy`).
    public var policy: NetworkPolicy

    /// A request for `url`.
    public init(
        url: URL, headers: [String: String] = [:], acceptsCompression: Bool, limits: TransferLimits,
        policy: NetworkPolicy = .interactive
    ) {
        self.url = url
        self.headers = headers
        self.acceptsCompression = acceptsCompression
        self.limits = limits
        self.policy = policy
    }

    /// Runs the request on `transport`, handing the response to `sink`; returns when the body
    /// ended and the sink accepted it. Cancelling the calling task stops the transfer.
    func perform(into sink: some ResponseSink, on transport: any HTTPTransport) async throws(TransferFailure) {
        try Self.checkScheme(of: url)
        try await transport.perform(self, into: sink)
    }

    /// Only http and https with a host: anything else fails at once and is never retried.
    static func checkScheme(of url: URL) throws(TransferFailure) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .unsupportedURL(reason: "only http and https URLs can be fetched")
        }
        guard let host = url.host, !host.isEmpty else { throw .unsupportedURL(reason: "the URL has no host") }
    }
}
