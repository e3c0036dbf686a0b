import Foundation
import NewsstandCore

/// The library's state in `library.sqlite`: one row per issue, per reading position and per
/// setting. Every commit writes only the rows that changed, in one transaction.
///
/// **Journal**: WAL with `synchronous = FULL` (and `fullfsync` where the platform has it). A
/// commit appends the changed pages to the `-wal` file and syncs that one file; readers never see
/// half a commit, and SQLite replays or drops a torn WAL tail on the next open, so a `kill -9` or
/// a power cut at any moment leaves the last committed state. FULL rather than NORMAL because the
/// state is the shelf: a status saved as available must still say so after a power cut.
///
/// **Several writers**: each commit holds the writer lock (`library.lock`) for its transaction
/// only, and notices another writer's commits since its own last transaction by `PRAGMA
/// data_version`. It then reads the tables back (after writing its rows, in the same
/// transaction), and the library merges them under its unsaved changes (`LibraryState.merge`).
/// Between transactions the connection holds no transaction and no lock of ours; SQLite's WAL
/// mode keeps a shared lock on the database file and on `-shm` while a connection is open (what
/// lets readers and writers of other processes find each other), which iOS allows a suspended
/// app for a SQLite database in WAL mode (ARCHITECTURE.md, "The reader on Apple platforms").
///
/// **Opening** treats the file as input from outside: a link (the file or its `-wal`, `-shm`,
/// `-journal`), another program's database, a newer schema or a damaged file is refused with
/// `LibraryError.stateUnusable` and nothing is written; a row with values the library never
/// writes is left out and reported (`LoadedState.problems`).
final class StateStore: @unchecked Sendable {  // the connection is used under `access`, one caller at a time
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
    /// Held for every use of the connection: the commits (`CommitQueue`), and the claims
    /// (`IssueClaims`), which share it so that their transactions are this connection's own and
    /// never look like another writer's commit (`PRAGMA data_version` counts other connections'
    /// commits only).
    private let access = NSLock()
    /// Nil once closed: a connection closes only when its last statement is finalized.
    private var statements: StateStatements?
    /// `PRAGMA data_version` as of this connection's last transaction: another value means
    /// another writer committed since.
    private var seenVersion: Int64
    /// The revisions this store's commits gave issues by committing engine events' changes
    /// (`StateBatch.conflicts`): `save()` may take a batch before the commit before it has come
    /// back, and such a batch holds a change made on top of that commit but still based on the
    /// revision it replaced.
    private var ownRevisions: [String: OwnRevisions] = [:]

    /// Revisions this store gave an issue one after another, each commit based on the one before.
    struct OwnRevisions: Sendable {
        /// The revision the first of them replaced, and each given since.
        var chain: Set<Int64?>
        /// The last one given.
        var last: Int64
    }
    let path: String
    let lock: WriterLock

    private init(database: SQLiteDatabase, lock: WriterLock, seenVersion: Int64) throws(SQLiteFailure) {
        self.database = database
        self.lock = lock
        self.seenVersion = seenVersion
        path = database.path
        statements = try StateStatements(database)
    }

    /// Opens the state of the library folder `folder`, creating it for `scale` or migrating
    /// `library.json` when there is no database yet. The caller holds the writer lock.
    static func open(
        in folder: OpenFolder, scale: LibraryScale, lock: WriterLock, openFlags: Int32
    ) throws(LibraryError) -> (StateStore, LoadedState) {
        let path = try StateFiles.prepare(in: folder, scale: scale, openFlags: openFlags)
        do {
            let database = try SQLiteDatabase(path: path, access: .readWrite(create: false), extraFlags: openFlags)
            try StateFiles.checkSchema(of: database, migrating: true)
            guard try database.text("PRAGMA journal_mode = WAL")?.lowercased() == "wal" else {
                throw SQLiteFailure(code: 0, message: "the database cannot use a write-ahead log")
            }
            // fullfsync: F_FULLFSYNC on Apple platforms, where fsync leaves the drive's cache
            // unflushed; ignored elsewhere.
            try database.execute("PRAGMA synchronous = FULL; PRAGMA fullfsync = ON; PRAGMA checkpoint_fullfsync = ON")
            let (version, loaded) = try database.reading { () throws -> (Int64, LoadedState) in
                (try database.dataVersion(), try StateRows.readTables(database))
            }
            return (try StateStore(database: database, lock: lock, seenVersion: version), loaded)
        } catch {
            throw .readingState(at: path, error)
        }
    }

    /// What a commit did: the tables as they are after it when another writer committed since
    /// this store's last transaction (nil when not), the issues whose claimless changes it
    /// did not write because that writer gave them a new revision (`ClaimlessWrite`), and the
    /// revisions it gave.
    struct CommitOutcome: Sendable {
        var stored: LoadedState?
        var dropped: Set<String> = []
        var revised: [String: Int64] = [:]
    }

    /// Writes `batch` in one transaction under the writer lock. Blocking: the `CommitQueue` runs it.
    func commit(_ batch: StateBatch) throws(LibraryError) -> CommitOutcome {
        try lock.hold { () throws(LibraryError) -> CommitOutcome in try commitHoldingLock(batch) }
    }

    /// `commit` for a caller that holds the writer lock (opening's repair). When another writer
    /// committed since this store's last transaction, the tables are read first: a claimless
    /// change whose issue they give another revision is left out, and the tables as the commit leaves
    /// them are what the library merges.
    func commitHoldingLock(_ batch: StateBatch) throws(LibraryError) -> CommitOutcome {
        access.lock()
        defer { access.unlock() }
        var outcome = CommitOutcome()
        var version = seenVersion
        do {
            try database.transaction { () throws(SQLiteFailure) in
                version = try database.dataVersion()
                guard let statements else { throw SQLiteFailure(code: 0, message: "the database was closed") }
                guard version != seenVersion else {
                    outcome.revised = try statements.write(batch)
                    return
                }
                var tables: LoadedState
                do {
                    tables = try StateRows.readTables(database)
                } catch let failure as SQLiteFailure {
                    throw failure
                } catch {
                    throw SQLiteFailure(code: 0, message: "\(error)")
                }
                outcome.dropped = batch.conflicts(with: tables.state, own: ownRevisions)
                let written = batch.dropping(outcome.dropped)
                outcome.revised = try statements.write(written)
                tables.state.takeWritten(written, revised: outcome.revised)
                tables.problems.removeAll { written.rewrites($0) }
                outcome.stored = tables
            }
        } catch {
            throw .cannotSave(path: path, reason: error.description)
        }
        seenVersion = version
        for (name, given) in outcome.revised {
            guard let write = batch.claimless[name], !outcome.dropped.contains(name) else { continue }
            if var own = ownRevisions[name], own.chain.contains(write.basis) {
                own.chain.insert(given)
                own.last = given
                ownRevisions[name] = own
            } else {
                ownRevisions[name] = OwnRevisions(chain: [write.basis, given], last: given)
            }
        }
        return outcome
    }

    /// The tables as they are now, when another writer committed since this store's last
    /// transaction; nil when nobody did. Takes no lock (a read transaction). Blocking.
    func reloadIfChanged() throws(LibraryError) -> LoadedState? {
        access.lock()
        defer { access.unlock() }
        do {
            let (version, stored) = try database.reading { () throws -> (Int64, LoadedState?) in
                let version = try database.dataVersion()
                return (version, version == seenVersion ? nil : try StateRows.readTables(database))
            }
            seenVersion = version
            return stored
        } catch {
            throw .readingState(at: path, error)
        }
    }

    /// Closes the database (its statements first, so that its files are closed now); later
    /// commits are refused by the library before they reach it.
    func close() {
        access.lock()
        defer { access.unlock() }
        statements = nil
        database.close()
    }

    /// Runs `body` on the connection (the claims' transactions), between commits.
    /// - Throws: `libraryClosed` once closed; `cannotSave` with SQLite's word.
    func withConnection<Result>(_ body: (SQLiteDatabase) throws(SQLiteFailure) -> Result) throws(LibraryError) -> Result {
        access.lock()
        defer { access.unlock() }
        guard statements != nil else { throw .libraryClosed(path: path) }
        do throws(SQLiteFailure) {
            return try body(database)
        } catch {
            throw .cannotSave(path: path, reason: error.description)
        }
    }
}
