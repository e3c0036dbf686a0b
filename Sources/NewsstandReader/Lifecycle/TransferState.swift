import Foundation

/// One transfer of an issue's bundle, from the request to the install.
struct TransferState: Equatable, Sendable {
    /// How far it is.
    enum Stage: Equatable, Sendable {
        /// Asked, not begun (no free slot yet, or stopped to go on later).
        case queued
        /// Bytes arriving.
        case transferring
        /// The whole file is in `Downloads/` under this name, not yet installed.
        case received(file: String)
        /// Being verified and unpacked from this file.
        case installing(file: String)
    }

    /// This transfer's generation (`TransferID`).
    var generation: Int
    var stage: Stage
    var intent: TransferIntent
    var engine: TransferEngineKind
    /// Bytes so far (kept in memory; a relaunch measures the part file again).
    var progress: DownloadProgress
    /// How many times this transfer was restarted because its engine lost it or failed with
    /// something to resume from (`IssueLifecycle.maxRestarts` ends it).
    var restarts: Int = 0

    /// The received file, once there is one.
    var file: String? {
        switch stage {
        case .received(let file), .installing(let file): file
        case .queued, .transferring: nil
        }
    }
}
