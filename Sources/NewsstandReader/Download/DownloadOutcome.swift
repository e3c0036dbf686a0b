/// What an in-process download of an issue did: the issue as it is now, and, for an update,
/// how it was brought up to date. The running download's task returns it to everyone who
/// joined it (`download(_:)`, `update(_:)`), so no result waits in a table on the side.
struct DownloadOutcome: Sendable {
    /// The issue, available.
    var issue: Issue
    /// How its update went; nil when it was a first download (or another process did the work).
    var update: UpdateResult? = nil
}
