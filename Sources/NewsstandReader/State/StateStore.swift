import Foundation
import NewsstandCore

/// The library's state in `library.sqlite`: one row per issue and per reading position, and a
/// few settings. Every save writes only the rows that changed, in one transaction.
///
/// **Journal**: WAL with `synchronous = FULL`. A commit appends the changed pages to the
/// `-wal` file and syncs that one file (a rollback journal syncs the journal, the database and
/// the folder on every commit); readers never see half a commit, and SQLite replays or drops a
/// torn WAL tail on the next open, so a `kill -9` or a power cut at any moment leaves the last
/// committed state. FULL rather than NORMAL because the state is the shelf: a status saved as
/// available must still say so after a power cut (NORMAL may lose the last commits).
///
/// **Opening** treats the file as input from outside: a link (the file or its `-wal`, `-shm`,
/// `-journal`), another program's database, a newer schema, a damaged file or a row with
/// values the library never writes is refused with `LibraryError.stateUnusable`, and nothing
/// is written. A library folder from before (its `library.json`) is migrated once: the new
/// database is written under a temporary name and renamed into place, then the JSON file is
/// renamed to `library.json.migrated`.
final class StateStore: @unchecked Sendable {
    /// The most issues a state file may hold: more than `maxCatalogBytes` admits (a century of
    /// dailies is 40,000 issues).
    static let maxIssues = 250_000
    /// The largest `library.sqlite` (with its `-wal`) read: what is read is kept in memory, so
    /// the file's size bounds it. A 100,000-issue library is about 17 MB.
    static let maxStateBytes: Int64 = 256 << 20
    /// The largest `library.json` migrated (a 100,000-issue one is about 50 MB).
    static let maxLegacyStateBytes: Int64 = 512 << 20
    static let fileName = "library.sqlite"
    static let legacyFileName = "library.json"
    static let migratedLegacyFileName = "library.json.migrated"
    /// Prefix of a database being created or migrated; one found on open is a leftover.
    static let temporaryPrefix = ".library.sqlite.tmp-"

    private let database: SQLiteDatabase
    private let upsertIssue: SQLiteStatement
    private let deleteIssue: SQLiteStatement
    private let upsertPosition: SQLiteStatement
    private let deletePosition: SQLiteStatement
    private let upsertSetting: SQLiteStatement
    private let deleteSetting: SQLiteStatement
    private var savedSettings: LibraryState.Settings
    let path: String

    private init(database: SQLiteDatabase, settings: LibraryState.Settings) throws(SQLiteFailure) {
        self.database = database
        path = database.path
        upsertIssue = try database.prepare(StateSchema.upsertIssue)
        deleteIssue = try database.prepare(StateSchema.deleteIssue)
        upsertPosition = try database.prepare(StateSchema.upsertPosition)
        deletePosition = try database.prepare(StateSchema.deletePosition)
        upsertSetting = try database.prepare(StateSchema.upsertSetting)
        deleteSetting = try database.prepare(StateSchema.deleteSetting)
        savedSettings = settings
    }

    /// Opens the state in `folder` (an open library folder), creating it for `scale` or
    /// migrating `library.json` when there is no database yet.
    static func open(in folder: OpenFolder, scale: LibraryScale) throws(LibraryError) -> (StateStore, LibraryState) {
        // SQLite refuses a link anywhere in the path it is given (SQLITE_OPEN_NOFOLLOW): give it
        // the folder's real path, so that only a link at the file itself is refused (a folder
        // reached through a link, as /tmp on macOS, is fine).
        guard let real = realpath(folder.path, nil) else {
            throw .cannotOpen(path: folder.path, reason: String(cString: strerror(errno)))
        }
        let root = String(cString: real)
        free(real)
        func path(_ name: String) -> String { root.hasSuffix("/") ? root + name : root + "/" + name }
        removeLeftovers(in: folder)
        for name in [fileName, fileName + "-wal", fileName + "-shm", fileName + "-journal"] {
            if let kind = folder.kind(of: name), kind != .regularFile {
                throw .stateUnusable(.notARegularFile(path: folder.path(of: name), kind: kind.description))
            }
        }
        if folder.kind(of: fileName) == nil {
            let legacy = try LegacyState.load(in: folder)
            try create(in: folder, at: path, with: legacy ?? LibraryState(scale: scale))
        }
        if folder.kind(of: legacyFileName) != nil {
            // The database holds it (migrated now, or before a crash that came before this rename).
            do {
                try folder.rename(legacyFileName, to: migratedLegacyFileName)
            } catch {
                throw .cannotSave(path: error.path, reason: error.reason)
            }
        }
        let bytes = [fileName, fileName + "-wal"].compactMap { folder.status(of: $0)?.size }.reduce(0, +)
        if bytes > maxStateBytes {
            throw .stateUnusable(.tooLarge(path: path(fileName), limit: maxStateBytes))
        }
        return try load(path(fileName))
    }

    /// Writes a new database holding `state` under a temporary name, then renames it into place:
    /// a crash leaves either no database (the next open starts again) or a complete one.
    private static func create(
        in folder: OpenFolder, at resolved: (String) -> String, with state: LibraryState
    ) throws(LibraryError) {
        let temporary = "\(temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let path = resolved(temporary)
        do {
            try write(state, toNewDatabaseAt: path)
            try folder.rename(temporary, to: fileName)
            try folder.synchronize()
        } catch let error as SQLiteFailure {
            try? folder.removeRegularFile(temporary)
            throw .cannotSave(path: path, reason: error.description)
        } catch let error as FileSystemError {
            try? folder.removeRegularFile(temporary)
            throw .cannotSave(path: error.path, reason: error.reason)
        } catch {
            try? folder.removeRegularFile(temporary)
            throw .cannotSave(path: path, reason: "\(error)")
        }
    }

    private static func write(_ state: LibraryState, toNewDatabaseAt path: String) throws(SQLiteFailure) {
        let database = try SQLiteDatabase(path: path, create: true)
        // A rollback journal while it is written: the file is complete and alone once closed.
        try database.execute("PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL")
        var fresh = state
        fresh.issues = ChangeTracked()
        fresh.readingPositions = ChangeTracked()
        for (name, record) in state.issues { fresh.issues[name] = record }
        for (name, position) in state.readingPositions { fresh.readingPositions[name] = position }
        // Under a temporary name nobody else opens: the tables first, then the rows in one transaction.
        try database.execute(StateSchema.create)
        let store = try StateStore(database: database, settings: LibraryState.Settings())
        try database.transaction { () throws(SQLiteFailure) in
            try store.upsertSetting.run([.text("scale"), .text(state.scale.rawValue)])
            try store.write(fresh)
        }
    }

    /// Opens an existing database and reads it whole, checking every row.
    private static func load(_ path: String) throws(LibraryError) -> (StateStore, LibraryState) {
        func unreadable(_ failure: SQLiteFailure) -> LibraryError { .stateUnusable(.unreadable(path: path, reason: failure)) }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path, create: false)
            let application = try database.integer("PRAGMA application_id") ?? 0
            let version = try database.integer("PRAGMA user_version") ?? 0
            guard application == StateSchema.applicationID else { throw LibraryError.stateUnusable(.notALibrary(path: path)) }
            guard version <= StateSchema.version else {
                throw LibraryError.stateUnusable(.newerSchema(path: path, found: version, supported: StateSchema.version))
            }
            if version == 1 {
                // Adds empty columns only: a row of version 1 reads as before, without an index.
                try database.transaction { () throws(SQLiteFailure) in try database.execute(StateSchema.migrateFrom1) }
            }
            guard try database.integer("PRAGMA user_version") == StateSchema.version else {
                throw LibraryError.stateUnusable(.notALibrary(path: path))
            }
            guard try database.text("PRAGMA journal_mode = WAL")?.lowercased() == "wal" else {
                throw SQLiteFailure(code: 0, message: "the database cannot use a write-ahead log")
            }
            try database.execute("PRAGMA synchronous = FULL")
        } catch let error as LibraryError {
            throw error
        } catch let error as SQLiteFailure {
            throw unreadable(error)
        } catch {
            throw unreadable(SQLiteFailure(code: 0, message: "\(error)"))
        }
        do {
            let state = try read(database, path: path)
            let store = try StateStore(database: database, settings: state.settings)
            return (store, state)
        } catch let error as LibraryError {
            throw error
        } catch let error as SQLiteFailure {
            throw unreadable(error)
        } catch {
            throw unreadable(SQLiteFailure(code: 0, message: "\(error)"))
        }
    }

    private static func read(_ database: SQLiteDatabase, path: String) throws -> LibraryState {
        var settings: [String: String] = [:]
        let settingRows = try database.prepare(StateSchema.selectSettings)
        while try settingRows.step() {
            guard let key = settingRows.text(0, limit: 64), let value = settingRows.text(1, limit: IssueRow.maxTextBytes) else {
                throw LibraryError.stateUnusable(.badRow(path: path, name: "settings", reason: "a setting is not short text"))
            }
            settings[key] = value
        }
        func bad(_ reason: String) -> LibraryError { .stateUnusable(.badRow(path: path, name: "settings", reason: reason)) }
        guard let scale = settings["scale"].flatMap(LibraryScale.init(rawValue:)) else { throw bad("scale is missing or unknown") }
        var state = LibraryState(scale: scale)
        if let catalog = settings["catalogURL"] {
            guard let url = URL(string: catalog), url.scheme != nil else { throw bad("catalogURL is not a URL") }
            state.catalogURL = url
        }
        state.catalogETag = settings["catalogETag"]
        state.catalogLastModified = settings["catalogLastModified"]
        state.currentlyReading = settings["currentlyReading"]
        // Straight into the state (boxed): a dictionary of records, then a copy, was a fifth of `list`.
        var issues = ChangeTracked<IssueRecord>()
        let rows = try database.prepare(StateSchema.selectIssues)
        while try rows.step() {
            guard issues.count < maxIssues else { throw LibraryError.stateUnusable(.tooManyIssues(path: path, limit: maxIssues)) }
            do {
                let record = try IssueRow.record(from: rows)
                issues.setLoaded(record, for: record.name)
            } catch {
                throw LibraryError.stateUnusable(.badRow(path: path, name: error.name, reason: error.reason))
            }
        }
        var positions: [String: ReadingPosition] = [:]
        let positionRows = try database.prepare(StateSchema.selectPositions)
        while try positionRows.step() {
            guard positions.count < maxIssues else { throw LibraryError.stateUnusable(.tooManyIssues(path: path, limit: maxIssues)) }
            guard let name = positionRows.text(0, limit: 255), let article = positionRows.int64(1), let page = positionRows.int64(2),
                let a = Int(exactly: article), let p = Int(exactly: page), a >= 0, p >= 0
            else {
                throw LibraryError.stateUnusable(.badRow(path: path, name: "reading_positions", reason: "a position is malformed"))
            }
            positions[name] = ReadingPosition(article: a, page: p)
        }
        state.issues = issues
        state.readingPositions = ChangeTracked(loaded: positions)
        return state
    }

    /// Writes what changed since the last save, in one transaction, and marks it saved.
    func save(_ state: inout LibraryState) throws(LibraryError) {
        guard state.hasChanges || state.settings != savedSettings else { return }
        do {
            try database.transaction { () throws(SQLiteFailure) in try write(state) }
        } catch {
            throw .cannotSave(path: path, reason: error.description)
        }
        savedSettings = state.settings
        state.markSaved()
    }

    /// The changed rows (inside a transaction).
    private func write(_ state: LibraryState) throws(SQLiteFailure) {
        for name in state.issues.changed {
            if let record = state.issues[name] {
                try upsertIssue.run(IssueRow.values(of: record))
            } else {
                try deleteIssue.run([.text(name)])
            }
        }
        for name in state.readingPositions.changed {
            if let position = state.readingPositions[name] {
                try upsertPosition.run([.text(name), .integer(Int64(position.article)), .integer(Int64(position.page))])
            } else {
                try deletePosition.run([.text(name)])
            }
        }
        let settings = state.settings
        guard settings != savedSettings else { return }
        let values: [(String, String?)] = [
            ("catalogURL", settings.catalogURL?.absoluteString), ("catalogETag", settings.catalogETag),
            ("catalogLastModified", settings.catalogLastModified), ("currentlyReading", settings.currentlyReading),
        ]
        for (key, value) in values {
            if let value { try upsertSetting.run([.text(key), .text(value)]) } else { try deleteSetting.run([.text(key)]) }
        }
    }

    /// Closes the database; later saves are refused by the library before they reach it.
    func close() { database.close() }

    /// Removes databases left half-written by a crash during `create` (names of ours only).
    private static func removeLeftovers(in folder: OpenFolder) {
        for entry in (try? folder.entries()) ?? [] {
            guard let name = entry.name, name.hasPrefix(temporaryPrefix), entry.kind == .regularFile else { continue }
            try? folder.removeRegularFile(name)
            for suffix in ["-journal", "-wal", "-shm"] { try? folder.removeRegularFile(name + suffix) }
        }
    }
}
