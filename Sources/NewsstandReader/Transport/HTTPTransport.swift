import Foundation

/// The HTTP stack a library runs every request on: the one seam where platforms differ
/// (libcurl on Linux, URLSession on Apple platforms), and where an app can supply its own
/// (`LibraryConfiguration.transport`).
///
/// A transport does HTTP: it sends `request` (its headers, `Range`/`If-Range` for a resumed
/// bundle, conditional headers for a catalog), follows redirects, decodes a `Content-Encoding`
/// when `acceptsCompression` is set, applies `request.limits` (the deadline and the minimum rate,
/// with `TransferWatch`, checked at least once a second even while nothing arrives) and stops
/// when the calling task is cancelled. What to do with the response is the sink's: the library
/// passes a sink that writes a bundle into its `.part` file and reports progress, one that
/// parses a catalog as it arrives, or one that streams a cover to a file, each within its own
/// size limit.
///
/// The sink is called from one thread at a time, in order: `open` with the final response
/// head (after redirects) once, `write` for each chunk of the body, `finish` when the body
/// ended normally, and `close` always, last. A sink that throws stops the transfer; its
/// failure is the one `perform` throws. `perform` blocks nothing: a transport runs its work on
/// threads of its own, never on the cooperative pool.
public protocol HTTPTransport: Sendable {
    /// Runs `request` to the end of its body (or its failure), handing the response to `sink`.
    func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure)
}
