/// An in-process download under way in one library: its task and what only that task needs.
/// None of it is the issue's state (that is the lifecycle's, saved in the rows): it ends with
/// the task, and with the process.
struct InProcessDownload {
    /// The download, joined by `download(_:)` and `update(_:)`.
    let task: Task<Result<DownloadOutcome, LibraryError>, Never>
    /// The networks it was started with.
    let policy: NetworkPolicy
    /// Called as bytes arrive, for each caller that joined with one.
    var progressHandlers: [@Sendable (DownloadProgress) -> Void] = []
    /// Shown downloading before its status is committed, with the bytes already on disk; nil
    /// once the lifecycle has the transfer.
    var starting: DownloadProgress?
    /// Stopped by `suspendDownloads()`: it stays pending.
    var isSuspending = false
    /// Its transfer began on the lifecycle, which tells its end (`endTransfer`).
    var endedOnLifecycle = false
}

/// What an in-process download of an issue did: the issue as it is now, and, for an update,
/// how it was brought up to date. The running download's task returns it to everyone who
/// joined it (`download(_:)`, `update(_:)`), so no result waits in a table on the side.
struct DownloadOutcome: Sendable {
    /// The issue, available.
    var issue: Issue
    /// How its update went; nil when it was a first download (or another process did the work).
    var update: UpdateResult? = nil
}
