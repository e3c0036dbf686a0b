import Foundation

/// The normal-scale files of an issue whose catalog entry does not say it has `@2x` files (no
/// retina keys), kept for a retina library: when the `@2x` cover or bundle answers 404 or 410,
/// the library uses these instead (any other failure stays a failure).
struct NormalScaleFallback: Codable, Equatable, Sendable {
    var coverURL: URL
    var contentURL: URL
    var contentSize: Int?
    var contentSHA256: String?
    var coverSHA256: String?

    /// Whether an HTTP answer means "there is no `@2x` file" rather than a failure.
    static func isMissing(_ failure: TransferFailure) -> Bool {
        if case .httpStatus(let status) = failure { return status == 404 || status == 410 }
        return false
    }
}
