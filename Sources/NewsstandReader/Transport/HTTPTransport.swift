import Foundation

/// The HTTP stack a library runs every request on: the one seam where platforms differ
/// (libcurl on Linux, URLSession on Apple platforms), and where an app can supply its own
/// (`LibraryConfiguration.transport`).
///
/// A transport does HTTP: it sends `request` (its headers, `Range`/`If-Range` for a resumed
/// bundle, conditional headers for a catalog), follows redirects, decodes a `Content-Encoding`
/// when `acceptsCompression` is set, applies `request.limits` (the deadline and the minimum rate,
/// with `TransferWatch`, checked at least once a second even while nothing arrives) and stops
/// when the calling task is cancelled. What to do with the response is the sink's, called as
/// `ResponseSink` says; a sink that throws stops the transfer, and its failure is the one
/// `perform` throws. `perform` blocks nothing: a transport runs its work on threads of its own,
/// never on the cooperative pool.
public protocol HTTPTransport: Sendable {
    /// Runs `request` to the end of its body (or its failure), handing the response to `sink`.
    func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure)
}
