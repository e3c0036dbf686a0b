import Foundation

/// The revision of an issue's rows, in its row of the `ownership` table: what an engine event's
/// change is conditional on (`ClaimlessWrite`). A commit gives an issue a new one (random, so that
/// a deleted and re-made row never repeats one) when a write in it changes the issue's life: its
/// record or transfer row other than in the bytes so far, resume data and last error, whoever
/// writes it (an owner, or an engine event that was still based on the current revision). So an
/// event's change is committed only while nobody changed the issue's life since the rows it was
/// made from, and two processes' progress events both go in. Only issues that have an ownership
/// row (they had a transfer or an owner: only then can an engine's event be based on them) or
/// whose transfer row the write changes are looked at, so a refresh of 100,000 records costs one
/// lookup each.
struct Revisions {
    private let hasRow: SQLiteStatement
    private let selectIssue: SQLiteStatement
    private let selectTransfer: SQLiteStatement
    private let revise: SQLiteStatement

    init(_ database: SQLiteDatabase) throws(SQLiteFailure) {
        hasRow = try database.prepare(StateSchema.selectOwnership)
        selectIssue = try database.prepare(StateSchema.selectIssue)
        selectTransfer = try database.prepare(StateSchema.selectTransfer)
        revise = try database.prepare(StateSchema.revise)
    }

    /// The issues whose life the writes of `batch` change, by the rows the database holds
    /// before it is written (a row that does not read back counts as changed). Copies no record:
    /// a refresh's batch may hold 100,000.
    func lifeChanges(in batch: StateBatch) throws(SQLiteFailure) -> Set<String> {
        var transfers: [String: Int] = [:]
        for (position, row) in batch.transfers.enumerated() { transfers[row.name] = position }
        var changed = Set<String>()
        for row in batch.issues {
            if transfers[row.name] == nil {
                guard try exists(row.name) else { continue }
            }
            if try stored(row.name, selectIssue, IssueRow.record, Self.life) != .some(Self.life(row.value)) {
                changed.insert(row.name)
            }
        }
        for (name, position) in transfers where !changed.contains(name) {
            if try stored(name, selectTransfer, TransferRow.record, Self.life)
                != .some(Self.life(batch.transfers[position].value))
            {
                changed.insert(name)
            }
        }
        return changed
    }

    /// Gives each of `names` a new revision; returns them.
    func revise(_ names: Set<String>) throws(SQLiteFailure) -> [String: Int64] {
        var revised: [String: Int64] = [:]
        for name in names {
            let revision = Int64.random(in: 1...Int64.max)
            try revise.run([.text(name), .integer(revision)])
            revised[name] = revision
        }
        return revised
    }

    private func exists(_ name: String) throws(SQLiteFailure) -> Bool {
        try hasRow.bind([.text(name)])
        defer { hasRow.reset() }
        return try hasRow.step()
    }

    /// `name`'s row as `select` reads it, as far as its `life` goes: `.some(nil)` when there is
    /// none, nil when it does not read back.
    private func stored<Value>(
        _ name: String, _ select: SQLiteStatement, _ read: (SQLiteStatement) throws(IssueRow.Refusal) -> Value,
        _ life: (Value?) -> Value?
    ) throws(SQLiteFailure) -> Value?? {
        try select.bind([.text(name)])
        defer { select.reset() }
        guard try select.step() else { return .some(nil) }
        return (try? read(select)).map(life)
    }

    /// A record as far as its life goes: without the bytes so far, and its date to the
    /// millisecond (a `Double` read back can differ from the one written in the last place).
    private static func life(_ record: IssueRecord?) -> IssueRecord? {
        guard var record else { return nil }
        if case .downloading = record.status {
            record.status = .downloading(DownloadProgress(bytesReceived: 0, bytesExpected: nil))
        }
        record.date = Date(timeIntervalSince1970: (record.date.timeIntervalSince1970 * 1000).rounded() / 1000)
        return record
    }

    /// A transfer row as far as its life goes: without the bytes so far, resume data and last error.
    private static func life(_ row: TransferRecord?) -> TransferRecord? {
        guard var row else { return nil }
        row.bytesReceived = 0
        row.bytesExpected = nil
        row.resumeData = nil
        row.lastError = nil
        return row
    }
}
