import Foundation

/// A change to an issue's record and transfer row made without the issue's claim: what an
/// engine's event writes (progress, a received file, a failure), in any process attached to the
/// engine, on rows that may be older than another process's commit. Such a change is committed
/// only while the database still holds the rows it was made from (`Basis`); when another writer
/// changed them meanwhile (an install, a cancel, a restart: all made under the claim), the change
/// is dropped, in the commit or in the next merge, and the other writer's rows are taken in. A
/// write made under the claim is never dropped: the claim already orders those writers.
///
/// Without this, the last writer won per row: an event handled between a synchronization and
/// its commit wrote "received" back over another process's installed issue, which was then
/// installed again, or left "downloading" with no transfer.
struct ClaimlessWrite: Sendable {
    /// What a claimless change is based on: the issue's record and transfer row, less what
    /// changes without changing the issue's life (the bytes so far, resume data, the last error)
    /// and the date's last bits (a `Double` in the database, which the read back can differ
    /// from in the last place).
    struct Basis: Equatable, Sendable {
        var record: IssueRecord?
        var row: TransferRecord?

        init(of name: String, in state: LibraryState) {
            record = state.issues[name].map(Self.comparable)
            row = state.transfers[name].map(Self.comparable)
        }

        private static func comparable(_ record: IssueRecord) -> IssueRecord {
            var record = record
            if case .downloading = record.status {
                record.status = .downloading(DownloadProgress(bytesReceived: 0, bytesExpected: nil))
            }
            record.date = Date(timeIntervalSince1970: (record.date.timeIntervalSince1970 * 1000).rounded() / 1000)
            return record
        }

        private static func comparable(_ row: TransferRecord) -> TransferRecord {
            var row = row
            row.bytesReceived = 0
            row.bytesExpected = nil
            row.resumeData = nil
            row.lastError = nil
            return row
        }
    }

    /// The rows the change was made from.
    var basis: Basis
    /// The change numbers of the name's pending record and row (`ChangeTracked`) after the
    /// latest claimless change: a later change under the claim gives them other numbers, and
    /// makes the pending change unconditional.
    var recordChange: UInt64?
    var rowChange: UInt64?

    /// A claimless change in a commit: committed only if the database holds `basis`; `written`
    /// is what the commit writes, the basis of a claimless change made again while it runs.
    struct Batched: Sendable {
        var write: ClaimlessWrite
        var written: Basis
    }
}
