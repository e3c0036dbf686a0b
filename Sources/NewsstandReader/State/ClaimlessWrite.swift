/// A change to an issue's record and transfer row made without the claim: what an
/// engine's event writes (progress, a received file, a failure), in any process attached to the
/// engine, on rows that may be older than another process's commit. Such a change is committed
/// only while the revision (its `ownership` row, `Revisions`) is still the one it was
/// made from: every committed change of the life (an install, a cancel, a restart, a
/// refresh's change of the record, another process's event that received the file) gives the
/// issue a new one, so the change is then dropped, in the commit or in the next merge, and that
/// writer's rows are taken in. A change of the bytes so far revises nothing: two processes'
/// progress events both go in. A write made under the claim is never dropped: the claim already
/// orders those writers.
///
/// Without this, the last writer won per row: an event handled between a synchronization and
/// its commit wrote "received" back over another process's installed issue, which was then
/// installed again, or left "downloading" with no transfer.
struct ClaimlessWrite: Sendable {
    /// The revision the change was made from (nil: it had none).
    var basis: Int64?
    /// The change numbers of the name's pending record and row (`ChangeTracked`) after the
    /// latest claimless change: a later change under the claim gives them other numbers, and
    /// makes the pending change unconditional.
    var recordChange: UInt64?
    var rowChange: UInt64?
}
