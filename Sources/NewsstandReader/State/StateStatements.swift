/// The prepared statements that write the state's rows, and the writing of one batch with them
/// (inside a transaction the caller holds).
struct StateStatements {
    private let upsertIssue: SQLiteStatement
    private let deleteIssue: SQLiteStatement
    private let upsertPosition: SQLiteStatement
    private let deletePosition: SQLiteStatement
    private let upsertSetting: SQLiteStatement
    private let deleteSetting: SQLiteStatement
    private let upsertTransfer: SQLiteStatement
    private let deleteTransfer: SQLiteStatement

    init(_ database: SQLiteDatabase) throws(SQLiteFailure) {
        upsertIssue = try database.prepare(StateSchema.upsertIssue)
        deleteIssue = try database.prepare(StateSchema.deleteIssue)
        upsertPosition = try database.prepare(StateSchema.upsertPosition)
        deletePosition = try database.prepare(StateSchema.deletePosition)
        upsertSetting = try database.prepare(StateSchema.upsertSetting)
        deleteSetting = try database.prepare(StateSchema.deleteSetting)
        upsertTransfer = try database.prepare(StateSchema.upsertTransfer)
        deleteTransfer = try database.prepare(StateSchema.deleteTransfer)
    }

    /// Writes (or deletes) every row of `batch`.
    func write(_ batch: StateBatch) throws(SQLiteFailure) {
        for row in batch.issues {
            if let record = row.value {
                try upsertIssue.run(IssueRow.values(of: record))
            } else {
                try deleteIssue.run([.text(row.name)])
            }
        }
        for row in batch.positions {
            if let position = row.value {
                try upsertPosition.run([.text(row.name), .integer(Int64(position.article)), .integer(Int64(position.page))])
            } else {
                try deletePosition.run([.text(row.name)])
            }
        }
        for row in batch.settings {
            if let value = row.value {
                try upsertSetting.run([.text(row.name), .text(value)])
            } else {
                try deleteSetting.run([.text(row.name)])
            }
        }
        for row in batch.transfers {
            if let transfer = row.value {
                try upsertTransfer.run(TransferRow.values(of: transfer))
            } else {
                try deleteTransfer.run([.text(row.name)])
            }
        }
    }
}
