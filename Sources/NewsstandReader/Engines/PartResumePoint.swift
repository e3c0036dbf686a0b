import Foundation
import NewsstandCore

/// Where a bundle download goes on from, given the `.part` file an earlier attempt left and the
/// `PartMetadata` beside it: the one rule the in-process download (`ResumableDownload`) and the
/// background session's hand-over of that download follow.
enum PartResumePoint: Equatable, Sendable {
    /// Nothing usable: start from zero.
    case fresh
    /// Continue after the `offset` bytes on disk with `Range` + `If-Range: validator`.
    case partial(offset: Int64, validator: String)
    /// The part file already holds the whole file, of `size` bytes.
    case complete(size: Int64)

    /// The point for `part`, downloaded from `url`, which may have at most `limit` bytes. Only a
    /// part whose metadata names the same URL and a validator counts (without a validator a
    /// server cannot say whether the file changed).
    static func of(part: URL, url: URL, limit: Int64) -> PartResumePoint {
        guard let metadata = PartMetadata.load(for: part), metadata.url == url, let validator = metadata.validator,
            let size = FileStatus.size(of: part)
        else { return .fresh }
        if let expected = metadata.expectedLength, size == expected, size <= limit { return .complete(size: size) }
        if size > 0, size < min(metadata.expectedLength ?? .max, limit) { return .partial(offset: size, validator: validator) }
        return .fresh
    }

    /// The bytes on disk a request continues (0 unless `partial`).
    var offset: Int64 {
        if case .partial(let offset, _) = self { return offset }
        return 0
    }
}
