/// Where an issue's content stands on this device (as `NKIssueContentStatus`).
public enum IssueStatus: Sendable, Equatable, Codable {
    /// Not downloaded (or removed).
    case none
    /// Being downloaded, verified or unpacked; persisted, so that a relaunched app can
    /// continue it with `IssueLibrary.resumePendingDownloads()`.
    case downloading(DownloadProgress)
    /// Unpacked into the issue's `contentURL` and ready to read.
    case available

    /// The status as one word: `none`, `downloading` or `available`.
    public var label: String {
        switch self {
        case .none: "none"
        case .downloading: "downloading"
        case .available: "available"
        }
    }
}
