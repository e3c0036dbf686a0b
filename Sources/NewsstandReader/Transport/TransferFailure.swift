import NewsstandCore

/// Why one HTTP request (a bundle download attempt, a catalog or a cover) ended without the
/// whole body.
public enum TransferFailure: Error, Sendable, Equatable {
    /// The server answered with an error status.
    case httpStatus(Int)
    /// A network error (libcurl's or `URLError`'s code and text), or the connection closed early.
    case network(code: Int, reason: String)
    /// The URL cannot be fetched at all (not http or https, or malformed): never retried.
    case unsupportedURL(reason: String)
    /// Fewer bytes than the minimum rate arrived over a whole stall window (none at all included).
    case stalled
    /// The request's overall deadline passed.
    case timedOut(seconds: Double)
    /// The body grew past what may be accepted: the size the catalog states, or a configured cap.
    case tooLarge(limit: Int64)
    /// The task was cancelled.
    case cancelled
    /// The server refused the resume range; the partial file was discarded.
    case rangeNotSatisfiable
    /// The server answered in a way a download cannot use (wrong `Content-Range`).
    case badResponse(String)
    /// The receiver refused the body (a catalog that is not a property list); it keeps the reason.
    case rejected
    /// Writing the file failed (`isNoSpace`: the disk is full, or a file-size limit was hit).
    case file(FileSystemError)
    /// No network the request may use (offline, or only networks its policy refuses): never
    /// retried.
    case networkUnavailable(NetworkUnavailableReason)
    /// The connection was refused as insecure: App Transport Security (a plain `http` URL the
    /// app's Info.plist does not allow) or a server certificate that is not trusted. Never retried.
    case insecureConnectionRefused(reason: String)
    /// The system stopped a background transfer, for the reason it gave
    /// (`NSURLErrorBackgroundTaskCancelledReasonKey`): not the library's own cancel.
    case cancelledBySystem(SystemCancelReason)

    /// Whether another attempt may succeed: network trouble, stalls, deadlines, 5xx/408/429 and
    /// a system cancel that can pass (a force-quit, scarce resources), but not 404, 403, an
    /// unusable URL, a body larger than stated, a full disk, no network the request may use, a
    /// connection refused as insecure, or background transfers turned off.
    public var isTransient: Bool {
        switch self {
        case .httpStatus(let status): status >= 500 || status == 408 || status == 429
        case .network, .stalled, .timedOut, .rangeNotSatisfiable, .badResponse: true
        case .unsupportedURL, .tooLarge, .cancelled, .rejected, .file, .networkUnavailable, .insecureConnectionRefused: false
        case .cancelledBySystem(let reason): reason.mayRetry
        }
    }

    /// Whether the bytes of a `.part` file cannot be kept after this failure: the server said
    /// no, sent more than allowed, or the file could not be written (deleting it frees the
    /// space a full disk needs for the library's own state).
    public var discardsPartialFile: Bool {
        switch self {
        case .httpStatus, .tooLarge, .file: true
        case .network, .unsupportedURL, .stalled, .timedOut, .cancelled, .rangeNotSatisfiable, .badResponse, .rejected,
            .networkUnavailable, .insecureConnectionRefused, .cancelledBySystem:
            false
        }
    }
}

extension TransferFailure: CustomStringConvertible {
    /// A short reason, for logs and problems reported about covers.
    public var description: String {
        switch self {
        case .httpStatus(let status): "HTTP \(status)"
        case .network(_, let reason): reason
        case .unsupportedURL(let reason): reason
        case .stalled: "stalled (slower than the minimum transfer rate)"
        case .timedOut(let seconds): "no complete answer within \(TransferLimits.format(seconds)) s"
        case .tooLarge(let limit): "larger than the limit of \(limit) bytes"
        case .cancelled: "cancelled"
        case .rangeNotSatisfiable: "the server refused the resume range"
        case .badResponse(let reason): reason
        case .rejected: "the body was refused"
        case .file(let error): "cannot write '\(error.path)': \(error.reason)"
        case .networkUnavailable(let reason): "\(reason)"
        case .insecureConnectionRefused(let reason): "refused as insecure: \(reason)"
        case .cancelledBySystem(let reason): "cancelled by the system: \(reason)"
        }
    }
}
