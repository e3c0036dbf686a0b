import Foundation

/// This library's own work on one issue, in this process, beside its in-process download
/// (`InProcessDownload`). None of it is the issue's state: nothing of it is saved or read back,
/// and it ends with the process (a relaunch finds the issue's rows, never this).
struct IssueWork {
    /// Pieces of this library's work holding, or taking, the issue's claim (a download, an
    /// install, a removal, the storage policy): a claim held by one of them is waited for, not
    /// taken for another process's.
    var claimants = 0
    /// A removal waits for this library's work on the issue to stop: a download asked meanwhile
    /// is refused as cancelled, so that downloads started again and again cannot keep the
    /// removal from its claim.
    var isRemoving = false
    /// The install of a received file under way.
    var install: Task<Void, Never>?
    /// How many times this library installed the issue from a background transfer (what a
    /// reconcile reports as installed by it).
    var backgroundInstalls = 0
    /// Its paid background transfer was restarted with a renewed link after the engine's 401 or
    /// 403, in this launch: the next refusal fails it (a relaunch that reports the failure may
    /// sign once more).
    var renewedLink = false
}
