/// What `IssueLibrary` must do after an event, in the order given. The machine decides; the
/// library only carries these out.
enum LifecycleAction: Equatable, Sendable {
    /// Write the changed state (record and transfer row) in the next commit.
    case save
    /// Tell observers the status changed (`LibraryEvent.statusChanged`).
    case emitStatus
    /// Tell observers bytes arrived (`LibraryEvent.progress`).
    case emitProgress(DownloadProgress)
    /// Tell observers the download failed (`LibraryEvent.downloadFailed`).
    case emitFailure(LibraryError)
    /// Start (or restart) the transfer of this generation on its engine, continuing what the
    /// engine or the part file has.
    case startTransfer(generation: Int, engine: TransferEngineKind)
    /// Follow a transfer the engine still runs (after a relaunch): its events come to this process.
    case reattach(generation: Int)
    /// Stop a transfer on its engine (kept for a resume when `keepingData`).
    case cancelTransfer(generation: Int, engine: TransferEngineKind, keepingData: Bool)
    /// Verify and unpack the received file (off the actor), then report `installed` or `failed`.
    case install(generation: Int, file: String)
    /// Delete a received file that will not be installed.
    case discardReceivedFile(String)
    /// Delete the in-process engine's part file (and its metadata).
    case discardPartFile
    /// Remove the oldest downloaded issues past the storage limits (never this one).
    case applyStoragePolicy
    /// Tell the app's analytics the issue was downloaded (`update` false) or updated.
    case recordInstall(update: Bool, byRanges: Bool = false)
}
