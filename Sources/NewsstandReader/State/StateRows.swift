import Foundation
import NewsstandCore

/// The state as read from `library.sqlite`, with the rows that were refused.
struct LoadedState: Sendable {
    var state: LibraryState
    /// Rows holding values the library never writes: each is left out (and left in the file as
    /// it is), the rest of the library stays usable. A row the library writes again replaces it.
    var problems: [StateError]
}

/// Reads the state's tables, checking every row as input from outside (the database is a file
/// anyone with access to the folder can edit). One bad row is a problem naming it, not a refusal
/// of the whole library; only what the library cannot work without (its scale) and what is too
/// large to hold refuse it.
enum StateRows {
    /// Every row, in one read transaction (a consistent snapshot while another process writes).
    static func readAll(_ database: SQLiteDatabase) throws -> LoadedState {
        try database.reading { try readTables(database) }
    }

    /// Every row, inside a transaction the caller holds.
    static func readTables(_ database: SQLiteDatabase) throws -> LoadedState {
        var problems: [StateError] = []
        let settings = try readSettings(database, problems: &problems)
        guard let scale = settings[LibraryState.Setting.scale].flatMap(LibraryScale.init(rawValue:)) else {
            throw LibraryError.stateUnusable(.badSetting(path: database.path, key: "scale", reason: "it is missing or unknown"))
        }
        var state = LibraryState(scale: scale)
        state.settings = ChangeTracked(loaded: settings)
        let path = database.path
        state.issues = try readRows(
            database, StateSchema.selectIssues, problems: &problems,
            read: { row throws(IssueRow.Refusal) in
                let record = try IssueRow.record(from: row)
                return (record.name, record)
            }, problem: { .badRow(path: path, name: $0.name, reason: $0.reason) })
        state.readingPositions = try readRows(
            database, StateSchema.selectPositions, problems: &problems, read: position(from:),
            problem: { .badReadingPosition(path: path, issue: $0.name, reason: $0.reason) })
        state.transfers = try readRows(
            database, StateSchema.selectTransfers, problems: &problems,
            read: { row throws(IssueRow.Refusal) in
                let record = try TransferRow.record(from: row)
                return (record.name, record)
            }, problem: { .badRow(path: path, name: $0.name, reason: $0.reason) })
        state.revisions = try readRevisions(database)
        return LoadedState(state: state, problems: problems)
    }

    /// The issues' revisions (`ClaimlessWrite`). A row with none (made by a claim) or whose
    /// revision does not read back is left out: the issue reads as never revised.
    static func readRevisions(_ database: SQLiteDatabase) throws -> [String: Int64] {
        var revisions: [String: Int64] = [:]
        let rows = try database.prepare(StateSchema.selectRevisions)
        while try rows.step() {
            guard revisions.count < StateStore.maxIssues else {
                throw LibraryError.stateUnusable(.tooManyIssues(path: database.path, limit: StateStore.maxIssues))
            }
            guard let name = rows.text(0, limit: 255), let revision = rows.int64(1) else { continue }
            revisions[name] = revision
        }
        return revisions
    }

    static func readSettings(_ database: SQLiteDatabase, problems: inout [StateError]) throws -> [String: String] {
        var settings: [String: String] = [:]
        let rows = try database.prepare(StateSchema.selectSettings)
        while try rows.step() {
            guard let key = rows.text(0, limit: 64) else {
                problems.append(.badSetting(path: database.path, key: "?", reason: "its key is not short text"))
                continue
            }
            guard let value = rows.text(1, limit: IssueRow.maxTextBytes) else {
                problems.append(
                    .badSetting(path: database.path, key: key, reason: "its value is not UTF-8 text of at most 64 KiB"))
                continue
            }
            if key == LibraryState.Setting.catalogURL, URL(string: value)?.scheme == nil {
                problems.append(.badSetting(path: database.path, key: key, reason: "'\(value)' is not a URL"))
                continue
            }
            settings[key] = value
        }
        return settings
    }

    /// Every row `select` returns, each read by `read` into `(name, value)`: a refused row is a
    /// problem (`problem`), more than `StateStore.maxIssues` rows refuse the library.
    /// Straight into the state (boxed): a dictionary of records, then a copy, was a fifth of `list`.
    private static func readRows<Value: Equatable & Sendable>(
        _ database: SQLiteDatabase, _ select: String, problems: inout [StateError],
        read: (SQLiteStatement) throws(IssueRow.Refusal) -> (String, Value),
        problem: (IssueRow.Refusal) -> StateError
    ) throws -> ChangeTracked<Value> {
        var values = ChangeTracked<Value>()
        let rows = try database.prepare(select)
        var count = 0
        while try rows.step() {
            count += 1
            guard count <= StateStore.maxIssues else {
                throw LibraryError.stateUnusable(.tooManyIssues(path: database.path, limit: StateStore.maxIssues))
            }
            do throws(IssueRow.Refusal) {
                let (name, value) = try read(rows)
                values.setLoaded(value, for: name)
            } catch {
                problems.append(problem(error))
            }
        }
        return values
    }

    /// Reads the current row of `selectPositions`: a safe issue name, and an article and a page
    /// that are whole numbers ≥ 0 this platform's `Int` holds.
    static func position(from row: SQLiteStatement) throws(IssueRow.Refusal) -> (String, ReadingPosition) {
        guard let name = row.text(0, limit: 255) else { throw IssueRow.Refusal(name: "?", reason: "its name is not short text") }
        guard IssueName.isSafe(name) else { throw IssueRow.Refusal(name: name, reason: "the name is not safe as a file name") }
        func index(_ column: Int32, _ label: String) throws(IssueRow.Refusal) -> Int {
            guard let value = row.int64(column), value >= 0, let index = Int(exactly: value) else {
                throw IssueRow.Refusal(name: name, reason: "\(label) \(row.describe(column)) is not a whole number ≥ 0")
            }
            return index
        }
        return (name, ReadingPosition(article: try index(1, "article"), page: try index(2, "page")))
    }

}
