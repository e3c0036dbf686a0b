import Foundation
import NewsstandCore

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// What SQLite said when a call failed: its result code and message.
public struct SQLiteFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The primary result code (`SQLITE_CORRUPT`, `SQLITE_NOTADB`, `SQLITE_FULL`…).
    public var code: Int32
    /// SQLite's message.
    public var message: String

    /// A failure with SQLite's code and message.
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// "message (SQLite code N)".
    public var description: String { "\(message) (SQLite code \(code))" }

    /// Whether SQLite says the file is damaged or not a database at all.
    public var isCorrupt: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }
}

/// One connection to a SQLite database file, opened without following links. Not thread-safe
/// by itself: its owner uses it from one thread at a time (the library's `CommitQueue`, or a
/// `LibraryReader` call).
final class SQLiteDatabase: @unchecked Sendable {
    /// How a connection opens its file.
    enum Access {
        /// Read and write; `create` makes the file when it is missing.
        case readWrite(create: Bool)
        /// Read only: nothing of the database is ever written through this connection.
        case readOnly
    }

    private let handle: OpaquePointer
    let path: String

    /// Opens `path`; a link anywhere in the path is refused by SQLite itself
    /// (`SQLITE_OPEN_NOFOLLOW`). `extraFlags` adds open flags (Apple's file protection classes).
    init(path: String, access: Access, extraFlags: Int32 = 0) throws(SQLiteFailure) {
        var opened: OpaquePointer?
        let mode: Int32
        switch access {
        case .readWrite(let create): mode = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        case .readOnly: mode = SQLITE_OPEN_READONLY
        }
        let flags = mode | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_FULLMUTEX | extraFlags
        let status = sqlite3_open_v2(path, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(opened)
            throw SQLiteFailure(code: status & 0xFF, message: message)
        }
        handle = opened
        self.path = path
        // Writers of ours take the folder's lock before they write; a stranger that locks the file
        // (another program's transaction) makes us fail after this long rather than hang.
        sqlite3_busy_timeout(handle, 2000)
        // No extension loading, no attached files: nothing but this file.
        sqlite3_limit(handle, SQLITE_LIMIT_ATTACHED, 0)
        // The write-ahead log and its shared-memory index stay when the last connection closes:
        // opening then allocates nothing, so a full disk never keeps the library from opening
        // and reading its state (SQLite's "disk I/O error" came from sizing a new `-shm` file).
        // The log itself is cut to nothing whenever it is reset and at that close
        // (`journal_size_limit = 0`), so no frame of an earlier log is ever read again.
        var persist: Int32 = 1
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist)
        sqlite3_exec(handle, "PRAGMA journal_size_limit = 0", nil, nil, nil)
    }

    private var isClosed = false

    deinit { close() }

    /// Closes the connection (SQLite finishes it once the last statement is finalized); the
    /// last connection to close checkpoints the write-ahead log and empties it (it stays, with
    /// its `-shm` file: see `init`).
    func close() {
        guard !isClosed else { return }
        isClosed = true
        sqlite3_close_v2(handle)
    }

    /// Runs statements that return no rows.
    func execute(_ sql: String) throws(SQLiteFailure) {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        if status != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(error)
            throw SQLiteFailure(code: status & 0xFF, message: message)
        }
    }

    /// A prepared statement; prepare once and reuse it for every row.
    func prepare(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status) }
        return SQLiteStatement(statement: statement, database: self)
    }

    /// The integer a query's first row gives (a pragma), or nil when it gives no row.
    func integer(_ sql: String) throws(SQLiteFailure) -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.int64(0)
    }

    /// The text a query's first row gives, or nil.
    func text(_ sql: String) throws(SQLiteFailure) -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(0, limit: 1 << 16)
    }

    /// Runs `body` in one transaction: all of it is written, or none of it.
    func transaction(_ body: () throws(SQLiteFailure) -> Void) throws(SQLiteFailure) {
        try execute("BEGIN IMMEDIATE")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// Runs `body` in one read transaction: every query in it sees the same committed state,
    /// whatever another connection commits meanwhile.
    func reading<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN")
        defer { try? execute("COMMIT") }
        return try body()
    }

    /// The rows the last INSERT, UPDATE or DELETE on this connection changed.
    var changes: Int32 { sqlite3_changes(handle) }

    /// `PRAGMA data_version`: a number that changes when another connection (in this process or
    /// another) commits, and only then. A writer compares it across its transactions to notice
    /// commits that were not its own.
    func dataVersion() throws(SQLiteFailure) -> Int64 {
        try integer("PRAGMA data_version") ?? 0
    }

    func failure(_ status: Int32) -> SQLiteFailure {
        SQLiteFailure(code: status & 0xFF, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement: bind, step, read columns, reset.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    init(statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    /// `SQLITE_TRANSIENT` (SQLite copies the bytes before the call returns): a C cast macro that
    /// Swift cannot import, spelled as its value on every platform.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds values to `?1`, `?2`… in order (nil binds NULL) after a reset.
    func bind(_ values: [SQLiteValue?]) throws(SQLiteFailure) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case nil: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text):
                status = text.utf8CString.withUnsafeBufferPointer { buffer in
                    sqlite3_bind_text(statement, index, buffer.baseAddress, Int32(buffer.count - 1), Self.transient)
                }
            }
            guard status == SQLITE_OK else { throw database.failure(status) }
        }
    }

    /// Steps once: true when a row is there to read, false when done.
    func step() throws(SQLiteFailure) -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let status: throw database.failure(status)
        }
    }

    /// Resets it after reading, so that it holds no read of the database.
    func reset() { sqlite3_reset(statement) }

    /// Binds and runs a statement that returns no rows.
    func run(_ values: [SQLiteValue?]) throws(SQLiteFailure) {
        try bind(values)
        _ = try step()
        sqlite3_reset(statement)
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    func int64(_ column: Int32) -> Int64? {
        sqlite3_column_type(statement, column) == SQLITE_INTEGER ? sqlite3_column_int64(statement, column) : nil
    }

    func double(_ column: Int32) -> Double? {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_FLOAT, SQLITE_INTEGER: sqlite3_column_double(statement, column)
        default: nil
        }
    }

    /// The column as text, or nil when it is not text, not UTF-8, or longer than `limit` bytes
    /// (a database is a file from outside: one row must not take the memory of the device).
    func text(_ column: Int32, limit: Int) -> String? {
        guard sqlite3_column_type(statement, column) == SQLITE_TEXT else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count <= limit, let bytes = sqlite3_column_text(statement, column) else { return nil }
        return UTF8Text.decode(UnsafeBufferPointer(start: bytes, count: count))
    }

    /// The column's value for a message: a number as it is, text quoted (its first 40 bytes),
    /// else its kind.
    func describe(_ column: Int32) -> String {
        switch sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER: String(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: String(sqlite3_column_double(statement, column))
        case SQLITE_NULL: "NULL"
        case SQLITE_TEXT: text(column, limit: 40).map { "'\($0)'" } ?? "a long or non-UTF-8 text"
        default: "a blob"
        }
    }
}

/// A value bound to a statement.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
}
