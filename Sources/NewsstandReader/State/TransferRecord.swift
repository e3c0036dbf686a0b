import Foundation

/// What the library persists about an issue's transfer by a background engine (one row per
/// issue in the `transfers` table): enough for a process that remembers nothing to ask the
/// engine what became of it, recognise a stale event, and install what arrived.
///
/// The row outlives the transfer (`stage == .ended`): its generation is the last one handed out,
/// so an event of an ended transfer stays stale after a relaunch, and `lastError` tells the
/// shelf why the last download failed.
struct TransferRecord: Equatable, Sendable {
    /// How far the transfer is.
    enum Stage: String, Sendable, CaseIterable {
        /// Handed to the engine, no byte yet.
        case queued
        /// Bytes arriving.
        case transferring
        /// The whole file is in `Downloads/` as `receivedFile`, not yet installed.
        case received
        /// No transfer: the last one ended (installed, failed or cancelled).
        case ended
    }

    /// The issue.
    var name: String
    /// The current (or, once ended, the last) generation.
    var generation: Int
    var stage: Stage
    var engine: TransferEngineKind
    var intent: TransferIntent
    /// The bundle asked for, with what it is checked against and its scale.
    var url: URL
    var expectedSize: Int?
    var expectedSHA256: String?
    var scale: LibraryScale
    /// The received file's name in `Downloads/` (`TransferHandOff.receivedName`).
    var receivedFile: String?
    /// Restarts of this transfer after its engine lost it (`IssueLifecycle.maxRestarts`).
    var restarts: Int = 0
    /// Bytes so far, as last reported.
    var bytesReceived: Int64 = 0
    var bytesExpected: Int64?
    /// What URLSession gave to continue a failed task, when anything.
    var resumeData: Data?
    /// Why the last transfer failed (a `LibraryError`'s description), until the next one.
    var lastError: String?

    /// The transfer's key.
    var id: TransferID { TransferID(name: name, generation: generation) }

    /// Whether a transfer is under way (not ended), on either engine.
    var isActive: Bool { stage != .ended }

    /// Whether a transfer is under way on the background engine: what reconciles, engine
    /// events and `backgroundTransfers` are about. An in-process one (a pending download, or
    /// one this process runs under the claim) is `download(_:)`'s.
    var runsInBackground: Bool { isActive && engine == .background }

    /// The bundle it fetches.
    var source: BundleSource { BundleSource(url: url, size: expectedSize, sha256: expectedSHA256, scale: scale) }

    /// Its progress.
    var progress: DownloadProgress { DownloadProgress(bytesReceived: bytesReceived, bytesExpected: bytesExpected) }
}
