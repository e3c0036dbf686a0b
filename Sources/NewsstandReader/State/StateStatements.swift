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
    private let revisions: Revisions

    init(_ database: SQLiteDatabase) throws(SQLiteFailure) {
        upsertIssue = try database.prepare(StateSchema.upsertIssue)
        deleteIssue = try database.prepare(StateSchema.deleteIssue)
        upsertPosition = try database.prepare(StateSchema.upsertPosition)
        deletePosition = try database.prepare(StateSchema.deletePosition)
        upsertSetting = try database.prepare(StateSchema.upsertSetting)
        deleteSetting = try database.prepare(StateSchema.deleteSetting)
        upsertTransfer = try database.prepare(StateSchema.upsertTransfer)
        deleteTransfer = try database.prepare(StateSchema.deleteTransfer)
        revisions = try Revisions(database)
    }

    /// Writes (or deletes) every row of `batch`, and gives each issue whose life it changes a new
    /// revision (`Revisions`), which it returns.
    @discardableResult
    func write(_ batch: StateBatch) throws(SQLiteFailure) -> [String: Int64] {
        let revising = try revisions.lifeChanges(in: batch)
        try Self.write(batch.issues, upsertIssue, deleteIssue) { IssueRow.values(of: $1) }
        try Self.write(batch.positions, upsertPosition, deletePosition) {
            [.text($0), .integer(Int64($1.article)), .integer(Int64($1.page))]
        }
        try Self.write(batch.settings, upsertSetting, deleteSetting) { [.text($0), .text($1)] }
        try Self.write(batch.transfers, upsertTransfer, deleteTransfer) { TransferRow.values(of: $1) }
        return try revisions.revise(revising)
    }

    /// Upserts each row that has a value (as `values` of its name and value), deletes the others.
    private static func write<Value>(
        _ rows: [StateBatch.Row<Value>], _ upsert: SQLiteStatement, _ delete: SQLiteStatement,
        _ values: (String, Value) -> [SQLiteValue?]
    ) throws(SQLiteFailure) {
        for row in rows {
            if let value = row.value { try upsert.run(values(row.name, value)) } else { try delete.run([.text(row.name)]) }
        }
    }
}
