/// A change an app's UI can follow (see `IssueLibrary.events()`).
public enum LibraryEvent: Sendable, Equatable {
    /// Bytes arrived for an issue's download.
    case progress(name: String, DownloadProgress)
    /// An issue's status changed (to downloading, available or none).
    case statusChanged(name: String, IssueStatus)
    /// A download failed; the issue's status is back to none.
    case downloadFailed(name: String, LibraryError)
    /// An issue's cover was fetched on demand (`IssueLibrary.cover(of:)`).
    case coverChanged(name: String)
    /// An update of a downloaded issue finished: by ranges (with the bytes fetched), or by a
    /// whole download (with the reason).
    case updated(name: String, UpdateResult)
    /// A refresh finished.
    case refreshed(RefreshResult)
}
