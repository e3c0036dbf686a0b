/// Why one download attempt ended without the whole file.
enum TransferFailure: Error, Sendable, Equatable {
    /// The server answered with an error status.
    case httpStatus(Int)
    /// A network error (`URLError` code and text), or the connection closed early.
    case network(code: Int, reason: String)
    /// Nothing arrived for longer than the stall timeout.
    case stalled
    /// The task was cancelled.
    case cancelled
    /// The server refused the resume range; the partial file was discarded.
    case rangeNotSatisfiable
    /// The server answered in a way a download cannot use (wrong `Content-Range`).
    case badResponse(String)
    /// Writing the partial file failed.
    case file(path: String, reason: String)

    /// Whether another attempt may succeed: network trouble, stalls and 5xx/408/429, but not
    /// 404, 403 or a full disk.
    var isTransient: Bool {
        switch self {
        case .httpStatus(let status): status >= 500 || status == 408 || status == 429
        case .network, .stalled, .rangeNotSatisfiable, .badResponse: true
        case .cancelled, .file: false
        }
    }
}
