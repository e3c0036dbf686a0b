/// Something that happened to an issue: asked by the app, reported by an engine or the
/// installer, or found on disk when the library opened. `IssueLifecycle.handle(_:)` takes one and
/// says what to do.
enum LifecycleEvent: Equatable, Sendable {
    /// A download (or an update) was asked.
    case requested(TransferIntent, engine: TransferEngineKind)
    /// The transfer of this generation began on its engine (a slot was free).
    case started(generation: Int)
    /// Bytes arrived.
    case progressed(generation: Int, DownloadProgress)
    /// The engine handed over the whole file: it is in `Downloads/` under `file` (the hand-off
    /// moved it there before this event, see `TransferHandOff`).
    case received(generation: Int, file: String)
    /// Verifying and unpacking `file` began.
    case installing(generation: Int)
    /// A new version is staged beside the content and about to be swapped in: the state names
    /// it installed from now on (`commitStaged`'s commit point, saved before the swap).
    case staged(InstalledContent)
    /// The swap after `staged` failed: the content is `previous` again, with the update it had.
    case swapUndone(previous: InstalledContent?, hadUpdate: Bool)
    /// The new content is in place (`byRanges`: an update assembled from the changed entries).
    case installed(generation: Int, InstalledContent, byRanges: Bool = false)
    /// The transfer or its install failed for good (after the engine's own retries).
    case failed(generation: Int, LibraryError)
    /// The transfer stopped to go on later (the app is quitting, `suspendDownloads()`).
    case suspended(generation: Int)
    /// The user cancelled the download.
    case cancelled
    /// Removing the content began: the content folder is being taken off the shelf.
    case removalStarted
    /// The content is gone.
    case removed
    /// A refresh compared the catalog with what is installed.
    case catalogCompared(hasNewContent: Bool)
    /// What the library found when it opened (files) and what the engine says it holds.
    case recovered(RecoveryFacts)
    /// An engine's report on a transfer of this issue, outside an open (a relaunch's events, a
    /// status poll), or on a task it holds for an older generation (an orphan).
    case engineReported(generation: Int, engine: TransferEngineKind, EngineReport)
}

/// What an engine says about one transfer it was given.
enum EngineReport: Equatable, Sendable {
    /// Still running (bytes so far).
    case running(DownloadProgress)
    /// Finished: the file was handed over and is in `Downloads/` under this name.
    case finished(file: String)
    /// Stopped with an error; `resumable` when what it got can be continued (resume data, a
    /// part file, an aria2 control file).
    case failed(LibraryError, resumable: Bool)
    /// The engine has no such transfer (it never got it, or it forgot it: the process that ran
    /// it is gone, the user force-quit the app, aria2's session lost it).
    case unknown
}

/// What is on disk for an issue when the library opens, and what its engine reports.
struct RecoveryFacts: Equatable, Sendable {
    /// Whether the content folder exists.
    var hasContent: Bool
    /// The received file of the current generation in `Downloads/`, if there is one.
    var receivedFile: String?
    /// What the transfer's engine says about the current generation (nil: not asked, as when
    /// the issue has no transfer).
    var engine: EngineReport?
    /// Whether the state names the transfer's bundle as installed: its install was committed
    /// (`commitStaged`'s save, the swap settled since) by a process that ended before the
    /// transfer did. Such a transfer is over, not lost: fetching it again would install it twice.
    var installCommitted = false
}
