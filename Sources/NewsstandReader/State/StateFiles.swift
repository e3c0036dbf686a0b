import Foundation
import NewsstandCore

/// The files of the state before a connection uses them: the path SQLite is given, the checks
/// that they are ours (regular files, not too large, our schema), and the creation of a new
/// database or the migration of a `library.json` from before. A new database is written under a
/// temporary name and renamed into place, then the JSON file is renamed to `library.json.migrated`.
enum StateFiles {
    /// The path of `library.sqlite` in the open library folder, once it exists (created for
    /// `scale`, or migrated) and every file of it is a regular file within the size limit.
    static func prepare(in folder: OpenFolder, scale: LibraryScale, openFlags: Int32) throws(LibraryError) -> String {
        let fileName = StateStore.fileName
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
        try checkRegularFiles(in: folder)
        if folder.kind(of: fileName) == nil {
            let legacy = try LegacyState.load(in: folder)
            try create(in: folder, at: path, with: legacy ?? LibraryState(scale: scale), openFlags: openFlags)
        }
        if folder.kind(of: StateStore.legacyFileName) != nil {
            // The database holds it (migrated now, or before a crash that came before this rename).
            do {
                try folder.rename(StateStore.legacyFileName, to: StateStore.migratedLegacyFileName)
            } catch {
                throw .cannotSave(path: error.path, reason: error.reason)
            }
        }
        try checkSize(in: folder, path: path(fileName))
        return path(fileName)
    }

    /// Refuses a link or other non-regular file at `library.sqlite` or its companions.
    static func checkRegularFiles(in folder: OpenFolder) throws(LibraryError) {
        let fileName = StateStore.fileName
        for name in [fileName, fileName + "-wal", fileName + "-shm", fileName + "-journal"] {
            if let kind = folder.kind(of: name), kind != .regularFile {
                throw .stateUnusable(.notARegularFile(path: folder.path(of: name), kind: kind.description))
            }
        }
    }

    /// Refuses a `library.sqlite` that, with its `-wal`, is larger than what is read into memory.
    static func checkSize(in folder: OpenFolder, path: String) throws(LibraryError) {
        let fileName = StateStore.fileName
        let bytes = [fileName, fileName + "-wal"].compactMap { folder.status(of: $0)?.size }.reduce(0, +)
        if bytes > StateStore.maxStateBytes {
            throw .stateUnusable(.tooLarge(path: path, limit: StateStore.maxStateBytes))
        }
    }

    /// Checks that `database` is a library's, of a schema this version reads; `migrating` brings
    /// an older database to this version (empty columns and tables only), otherwise it is refused as older.
    static func checkSchema(of database: SQLiteDatabase, migrating: Bool) throws {
        let path = database.path
        let application = try database.integer("PRAGMA application_id") ?? 0
        let version = try database.integer("PRAGMA user_version") ?? 0
        guard application == StateSchema.applicationID else { throw LibraryError.stateUnusable(.notALibrary(path: path)) }
        guard version <= StateSchema.version else {
            throw LibraryError.stateUnusable(.newerSchema(path: path, found: version, supported: StateSchema.version))
        }
        if version < StateSchema.version, version >= 1 {
            guard migrating else {
                throw LibraryError.stateUnusable(.olderSchema(path: path, found: version, needed: StateSchema.version))
            }
            // Each step adds empty columns or tables (the last also drops version 5's claims, which
            // no process of this version holds): every row reads as before. One transaction, so a
            // crash leaves the old version or the new one.
            try database.transaction { () throws(SQLiteFailure) in
                if version == 1 { try database.execute(StateSchema.migrateFrom1) }
                if version <= 2 { try database.execute(StateSchema.createTransfers) }
                if version <= 3 { try database.execute(StateSchema.migrateFrom3) }
                try database.execute(StateSchema.migrateFrom5)
            }
        }
        guard try database.integer("PRAGMA user_version") == StateSchema.version else {
            throw LibraryError.stateUnusable(.notALibrary(path: path))
        }
    }

    /// Writes a new database holding `state` under a temporary name, then renames it into place:
    /// a crash leaves either no database (the next open starts again) or a complete one.
    private static func create(
        in folder: OpenFolder, at resolved: (String) -> String, with state: LibraryState, openFlags: Int32
    ) throws(LibraryError) {
        let temporary = "\(StateStore.temporaryPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let path = resolved(temporary)
        do {
            try write(state, toNewDatabaseAt: path, openFlags: openFlags)
            try folder.rename(temporary, to: StateStore.fileName)
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

    private static func write(_ state: LibraryState, toNewDatabaseAt path: String, openFlags: Int32) throws(SQLiteFailure) {
        let database = try SQLiteDatabase(path: path, access: .readWrite(create: true), extraFlags: openFlags)
        // A rollback journal while it is written: the file is complete and alone once closed.
        try database.execute("PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA fullfsync = ON")
        // Under a temporary name nobody else opens: the tables first, then the rows in one transaction.
        try database.execute(StateSchema.create)
        let statements = try StateStatements(database)
        try database.transaction { () throws(SQLiteFailure) in try statements.write(state.pendingChanges) }
    }

    /// Removes databases left half-written by a crash during `create` (names of ours only).
    private static func removeLeftovers(in folder: OpenFolder) {
        for entry in (try? folder.entries()) ?? [] {
            guard let name = entry.name, name.hasPrefix(StateStore.temporaryPrefix), entry.kind == .regularFile else { continue }
            try? folder.removeRegularFile(name)
            for suffix in ["-journal", "-wal", "-shm"] { try? folder.removeRegularFile(name + suffix) }
        }
    }
}
