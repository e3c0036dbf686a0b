import Foundation

/// One attempt at downloading a bundle into its `.part` file, continuing the bytes already
/// there with `Range` + `If-Range` (Foundation on Linux produces no resume data).
struct ResumableDownload: Sendable {
    /// How an attempt that got the whole file went.
    struct Outcome: Sendable, Equatable {
        /// The complete file's size.
        var size: Int64
        /// Bytes that came over the network this time.
        var bytesTransferred: Int64
        /// Whether bytes from an earlier attempt were thrown away (a 200 answered the range).
        var restarted: Bool
    }

    /// The catalog's URL: what the `.part` file's metadata records, so that a resume through a
    /// newly signed link continues it.
    let url: URL
    /// The URL requested: `url`, or a paid issue's signed link to it.
    let requestURL: URL
    let part: URL
    /// The most bytes the file may have: the size the catalog states (or, without one, the
    /// most a bundle could unpack to). A server sending more is cut off at once.
    let limit: Int64
    let limits: TransferLimits
    let policy: NetworkPolicy
    let transport: any HTTPTransport

    /// Downloads the rest of the file. `progress` gets (bytes on disk, bytes expected).
    func run(progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(TransferFailure) -> Outcome {
        let point = PartResumePoint.of(part: part, url: url, limit: limit)
        switch point {
        case .complete(let size): return Outcome(size: size, bytesTransferred: 0, restarted: false)
        case .fresh: PartMetadata.discard(part: part)
        case .partial: break
        }
        if Task.isCancelled { throw .cancelled }
        var request = HTTPRequest(url: requestURL, acceptsCompression: false, limits: limits, policy: policy)
        if case .partial(let offset, let validator) = point {
            request.headers["Range"] = "bytes=\(offset)-"
            request.headers["If-Range"] = validator
        }
        let sink = PartFileSink(url: url, part: part, offset: point.offset, limit: limit, progress: progress)
        try await request.perform(into: sink, on: transport)
        return sink.outcome
    }
}
