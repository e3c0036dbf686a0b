/// How an update of a downloaded issue went (`IssueLibrary.update(_:)`, `LibraryEvent.updated`).
public enum UpdateResult: Sendable, Equatable {
    /// The installed content was already the catalog's: nothing was fetched.
    case upToDate
    /// Only the entries that changed were fetched, with HTTP `Range` requests into the new
    /// bundle: `bytesFetched` bytes of bundle data in `requests` requests; `entriesFetched`
    /// entries came from them, `entriesKept` were kept from the installed version.
    case ranges(bytesFetched: Int64, requests: Int, entriesFetched: Int, entriesKept: Int)
    /// The whole bundle was downloaded, as for a first download, for this reason.
    case full(FullDownloadReason)
}

/// Why an update downloaded the whole bundle instead of ranges.
public enum FullDownloadReason: Error, Sendable, Equatable, CustomStringConvertible {
    /// The issue was not downloaded (a first download is always whole).
    case notInstalled
    /// The catalog gives no index (`ContentIndex` and its size and SHA-256) for the bundle.
    case noIndex
    /// The installed content has no index of its own (installed before indexes, or from a bundle
    /// zipped with an enclosing folder), or one that does not describe the bundle the record says
    /// is installed, so no installed file can be trusted by its hash.
    case noInstalledIndex
    /// The index could not be fetched, or was refused (size, SHA-256, format, or it describes
    /// another bundle than the catalog's).
    case indexUnusable(String)
    /// The server answered a `Range` request with the whole file (200): it ignores ranges.
    case rangesIgnored
    /// The server's ranges could not be used (a wrong `Content-Range`, a bad multipart body).
    case badRangeResponse(String)
    /// A fetched entry did not match the index (size, SHA-256, CRC or its local record).
    case indexMismatch(String)
    /// The changed entries are more than half of the bundle: one whole download is cheaper.
    case tooMuchChanged(bytes: Int64, bundleSize: Int64)
    /// The update by ranges failed on this side (its spool or the new version could not be
    /// written, an installed file could not be linked): the file error.
    case rangesFailed(String)

    /// One line, for logs and `newsstand library`.
    public var description: String {
        switch self {
        case .notInstalled: "not downloaded yet"
        case .noIndex: "the catalog gives no index for the bundle"
        case .noInstalledIndex: "the installed content has no index"
        case .indexUnusable(let reason): "the index is unusable: \(reason)"
        case .rangesIgnored: "the server ignores Range requests"
        case .badRangeResponse(let reason): "the server's ranges are unusable: \(reason)"
        case .indexMismatch(let reason): "the bundle does not match its index: \(reason)"
        case .tooMuchChanged(let bytes, let size): "\(bytes) of \(size) bytes changed (over half)"
        case .rangesFailed(let reason): "the update by ranges failed: \(reason)"
        }
    }
}
