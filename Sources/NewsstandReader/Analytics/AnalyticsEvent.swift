/// Something an app may want to count (seed 003: a notification "received" and "opened" are
/// different events, seen in different places). The library hands these to the app's
/// `AnalyticsSink` and sends nothing anywhere itself; no event carries personal data: issue
/// names, counts and methods only, never a URL (a signed URL is a credential), a device
/// identifier or a reading position.
public enum AnalyticsEvent: Sendable, Equatable {
    /// A push arrived (`IssueLibrary.handleRemoteNotification`), naming `issue` when it names
    /// one that the library knows (by `IssueLibrary.issue(for:)`).
    case notificationReceived(issue: String?)
    /// The user opened the app from a push (`IssueLibrary.recordNotificationOpened(_:)`).
    case notificationOpened(issue: String?)
    /// An issue was downloaded and installed for the first time, `automatically` when the app
    /// asked on its own (push, background fetch, Background Assets).
    case issueDownloaded(name: String, automatically: Bool)
    /// An issue's content was opened for reading (`IssueLibrary.content(of:)`).
    case issueOpened(name: String)
    /// A downloaded issue was brought to the catalog's new content.
    case issueUpdated(name: String, byRanges: Bool)
    /// A downloaded issue's content was removed (by the app, or by the storage policy when
    /// `byPolicy`).
    case issueRemoved(name: String, byPolicy: Bool)
}

/// Where the library sends `AnalyticsEvent`s: the app's own analytics. Called on the library's
/// executor; return quickly (hand the event to your own queue).
public protocol AnalyticsSink: Sendable {
    /// One event.
    func record(_ event: AnalyticsEvent)
}
