import NewsstandCore

/// Why a library operation failed. Every case carries the issue, path or URL involved.
public enum LibraryError: Error, Sendable, Equatable {
    /// The library folder or its state file cannot be read.
    case cannotOpen(path: String, reason: String)
    /// Another writer (a process, or another `IssueLibrary` in this one) held the folder's writer
    /// lock for longer than `LibraryConfiguration.lockTimeout`; nothing was written.
    case libraryInUse(path: String)
    /// Another process (or another `IssueLibrary` in this one) is working on this issue's files
    /// (downloading, updating or removing it); nothing was changed.
    case issueBusy(name: String)
    /// A paid issue the reader is not entitled to: the `AccessProvider` refused (its reason), or
    /// the library has none, or the server refused the renewed link too. Nothing was changed.
    case notEntitled(name: String, reason: String)
    /// The library was closed with `close()`; open it again to change it.
    case libraryClosed(path: String)
    /// The state file cannot be used (a link, another program's file, a newer schema, damaged,
    /// or holding values the library never writes); nothing was written.
    case stateUnusable(StateError)
    /// The state file or a library folder cannot be written.
    case cannotSave(path: String, reason: String)
    /// No issue with this name is in the library.
    case unknownIssue(name: String)
    /// `refresh()` without a URL, and the library has never been refreshed.
    case noCatalogURL
    /// A catalog or bundle URL that cannot be fetched (not http or https, or malformed); never retried.
    case unsupportedURL(url: String, reason: String)
    /// The catalog could not be fetched (network error).
    case catalogUnavailable(url: String, reason: String)
    /// The catalog server answered with an error status.
    case catalogHTTPStatus(url: String, status: Int)
    /// The catalog is not a valid `issues.plist`; the library was not changed.
    case catalogMalformed(url: String, reason: String)
    /// The catalog is larger, decoded, than `LibraryConfiguration.maxCatalogBytes`; the
    /// transfer was cut there and the library was not changed.
    case catalogTooLarge(url: String, limit: Int64)
    /// The catalog did not arrive within `LibraryConfiguration.requestTimeout`.
    case catalogTimedOut(url: String, seconds: Double)
    /// The catalog arrived slower than `LibraryConfiguration.minimumSpeed` over a whole
    /// `stallTimeout` window (or not at all).
    case catalogStalled(url: String)
    /// The bundle download failed for good (after retries, when the failure was transient).
    case downloadFailed(name: String, url: String, reason: String)
    /// The bundle server answered with an error status (404 and 403 are not retried).
    case downloadHTTPStatus(name: String, url: String, status: Int)
    /// The bundle arrived slower than the minimum rate, or not at all, for a whole
    /// `stallTimeout` window (after retries, each resuming the last).
    case downloadStalled(name: String, url: String)
    /// The server sent, or announced, more bytes than the catalog states (`limit`); the
    /// transfer was cut at once and the partial file deleted. Not retried.
    case downloadTooLarge(name: String, url: String, limit: Int64)
    /// The download was cancelled; the partial file is kept for a later resume.
    case cancelled(name: String)
    /// No network the request may use (offline, or only networks its `NetworkPolicy` refuses);
    /// it was not retried. A download's partial file is kept for a later resume.
    case networkUnavailable(url: String, reason: NetworkUnavailableReason)
    /// The connection was refused as insecure (App Transport Security, or an untrusted server
    /// certificate); it was not retried.
    case insecureConnectionRefused(url: String, reason: String)
    /// The downloaded bundle's size or SHA-256 differs from the catalog's; it was deleted.
    case verificationFailed(name: String, path: String, reason: String)
    /// Not enough free space for the download plus its unpacked content.
    case insufficientSpace(name: String, path: String, required: Int64, available: Int64)
    /// The disk filled up (or a file-size limit was hit) while writing `path`; the partial
    /// file was deleted so that the library itself can still be saved.
    case diskFull(path: String, reason: String)
    /// The bundle could not be unpacked safely; nothing of it was kept.
    case unpackFailed(name: String, reason: ZipExtractionError)
    /// `cover(of:)` could not fetch the cover (the problem says why: unavailable or too large).
    case coverNotFetched(RefreshProblem)
    /// A file operation on the library's own files failed.
    case fileSystem(path: String, reason: String)
    /// The download's engine lost it again and again (`restarts` times): it was given up.
    case transferLost(name: String, restarts: Int)
    /// A background download was asked before `IssueLibrary.useBackgroundEngine(_:)`.
    case backgroundEngineMissing(path: String)
}

extension LibraryError: CustomStringConvertible {
    /// A one-line reason, for logs and the command line; the URLs in it keep no query, fragment
    /// or user information (`Redacted.withoutURLSecrets`: a signed URL's secret stays out).
    public var description: String { Redacted.withoutURLSecrets(text) }

    private var text: String {
        switch self {
        case .cannotOpen(let path, let reason): "cannot open library '\(path)': \(reason)"
        case .libraryInUse(let path): "library '\(path)' is in use by another process or library instance"
        case .notEntitled(let name, let reason): "not entitled to issue '\(name)': \(reason)"
        case .issueBusy(let name):
            "issue '\(name)' is being downloaded, updated or removed by another process or library instance"
        case .libraryClosed(let path): "library '\(path)' was closed"
        case .stateUnusable(let reason): "cannot open library state: \(reason)"
        case .cannotSave(let path, let reason): "cannot save '\(path)': \(reason)"
        case .unknownIssue(let name): "no issue named '\(name)' in the library"
        case .noCatalogURL: "the library has no catalog URL yet: refresh it from one first"
        case .unsupportedURL(let url, let reason): "cannot fetch '\(url)': \(reason)"
        case .catalogUnavailable(let url, let reason): "cannot fetch catalog '\(url)': \(reason)"
        case .catalogHTTPStatus(let url, let status): "catalog '\(url)' answered HTTP \(status)"
        case .catalogMalformed(let url, let reason): "catalog '\(url)' is malformed: \(reason)"
        case .catalogTooLarge(let url, let limit): "catalog '\(url)' is larger than the limit of \(limit) bytes"
        case .catalogTimedOut(let url, let seconds):
            "catalog '\(url)' did not arrive within \(TransferLimits.format(seconds)) s"
        case .catalogStalled(let url): "catalog '\(url)' stalled (slower than the minimum transfer rate)"
        case .downloadFailed(let name, let url, let reason): "download of '\(name)' from '\(url)' failed: \(reason)"
        case .downloadHTTPStatus(let name, let url, let status): "download of '\(name)' from '\(url)' answered HTTP \(status)"
        case .downloadStalled(let name, let url):
            "download of '\(name)' from '\(url)' stalled (slower than the minimum transfer rate)"
        case .downloadTooLarge(let name, let url, let limit):
            "download of '\(name)' from '\(url)' stopped: the server sends more than the \(limit) bytes the catalog allows"
        case .cancelled(let name): "download of '\(name)' was cancelled"
        case .networkUnavailable(let url, let reason): "cannot fetch '\(url)': \(reason)"
        case .insecureConnectionRefused(let url, let reason): "cannot fetch '\(url)': refused as insecure: \(reason)"
        case .verificationFailed(let name, let path, let reason): "bundle of '\(name)' ('\(path)') failed verification: \(reason)"
        case .insufficientSpace(let name, let path, let required, let available):
            "not enough space for '\(name)' in '\(path)': needs \(required) bytes, \(available) free"
        case .diskFull(let path, let reason): "cannot write '\(path)': \(reason); the partial file was deleted"
        case .unpackFailed(let name, let reason): "cannot unpack '\(name)': \(reason)"
        case .coverNotFetched(.coverTooLarge(let name, let url, let limit)):
            "cover of '\(name)' ('\(url)') is larger than the limit of \(limit) bytes"
        case .coverNotFetched(.coverUnavailable(let name, let url, let reason)):
            "cover of '\(name)' ('\(url)') not fetched: \(reason)"
        case .coverNotFetched(let problem): "cover not fetched: \(problem)"
        case .fileSystem(let path, let reason): "file operation on '\(path)' failed: \(reason)"
        case .transferLost(let name, let restarts): "download of '\(name)' was lost by its engine \(restarts) times; given up"
        case .backgroundEngineMissing(let path): "library \(path) has no background engine in use (useBackgroundEngine)"
        }
    }
}
