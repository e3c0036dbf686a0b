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
        state.issues = try readIssues(database, problems: &problems)
        state.readingPositions = try readPositions(database, problems: &problems)
        state.transfers = try readTransfers(database, problems: &problems)
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

    static func readIssues(_ database: SQLiteDatabase, problems: inout [StateError]) throws -> ChangeTracked<IssueRecord> {
        // Straight into the state (boxed): a dictionary of records, then a copy, was a fifth of `list`.
        var issues = ChangeTracked<IssueRecord>()
        let rows = try database.prepare(StateSchema.selectIssues)
        var count = 0
        while try rows.step() {
            count += 1
            guard count <= StateStore.maxIssues else {
                throw LibraryError.stateUnusable(.tooManyIssues(path: database.path, limit: StateStore.maxIssues))
            }
            do {
                let record = try IssueRow.record(from: rows)
                issues.setLoaded(record, for: record.name)
            } catch {
                problems.append(.badRow(path: database.path, name: error.name, reason: error.reason))
            }
        }
        return issues
    }

    static func readPositions(_ database: SQLiteDatabase, problems: inout [StateError]) throws -> ChangeTracked<ReadingPosition> {
        var positions: [String: ReadingPosition] = [:]
        let rows = try database.prepare(StateSchema.selectPositions)
        while try rows.step() {
            guard positions.count < StateStore.maxIssues else {
                throw LibraryError.stateUnusable(.tooManyIssues(path: database.path, limit: StateStore.maxIssues))
            }
            do throws(IssueRow.Refusal) {
                let (name, position) = try position(from: rows)
                positions[name] = position
            } catch {
                problems.append(.badReadingPosition(path: database.path, issue: error.name, reason: error.reason))
            }
        }
        return ChangeTracked(loaded: positions)
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

    static func readTransfers(_ database: SQLiteDatabase, problems: inout [StateError]) throws -> ChangeTracked<TransferRecord> {
        var transfers: [String: TransferRecord] = [:]
        let rows = try database.prepare(StateSchema.selectTransfers)
        while try rows.step() {
            guard transfers.count < StateStore.maxIssues else {
                throw LibraryError.stateUnusable(.tooManyIssues(path: database.path, limit: StateStore.maxIssues))
            }
            do throws(IssueRow.Refusal) {
                let record = try TransferRow.record(from: rows)
                transfers[record.name] = record
            } catch {
                problems.append(.badRow(path: database.path, name: error.name, reason: error.reason))
            }
        }
        return ChangeTracked(loaded: transfers)
    }
}
