import Foundation
import NewsstandCore

/// One owner at a time works on an issue's files: its `.part` file and metadata, its unpack, its
/// update's swap, its removal. The claim of an issue is the owner of its row of the `ownership`
/// table in `library.sqlite`, taken in a transaction of its own (a compare-and-set: the owner is
/// written only when nobody who may still be working is it) and given back by clearing it. The
/// same row holds the revision of the issue's rows, which every committed change of the issue's
/// life renews and an engine event's change is conditional on (`Revisions`, `ClaimlessWrite`):
/// one row per issue orders every writer. Nothing is locked while the work runs: an app suspended in the middle of a download
/// holds no file lock (0xdead10cc), only a row.
///
/// A row is its holder's while the holder may still be working:
/// - in this process, while the `IssueClaim` that took it is held (a register of this process's
///   claims, by their tokens);
/// - in another, while that process runs (`ProcessLiveness`) and renewed the row within the lease
///   (`defaultLease`, two minutes).
///   Each holder renews its rows every quarter of the lease while it holds them. An owner that
///   died loses its claims at once; one that stopped renewing (an iOS app suspended mid-download)
///   loses them after the lease, and finds out before it commits an install (`holds(_:)`).
///
/// Taking a claim holds the writer lock for its transaction, as every commit does: opening's
/// repair holds it too, so it sees every claim. Giving one back needs no writer lock.
final class IssueClaims: Sendable {
    /// How long another process's claim stands without being renewed, by default.
    static let defaultLease: TimeInterval = 120

    /// The tokens of the claims held in this process, by any library instance.
    private static let heldInProcess = Locked<Set<String>>([])

    private struct Holding {
        /// Name → token of the claims this instance holds.
        var names: [String: String] = [:]
        /// Tokens whose row another owner took over after the lease ran out.
        var lost: Set<String> = []
        var renewing = false
        var closed = false
    }

    private let store: StateStore
    private let holding = Locked(Holding())
    /// Clearings of given-back owners under way (`release`), waited for before closing.
    private let releases = DispatchGroup()
    /// The library's clock: the rows' `renewed` is its `now`.
    private let clock: LibraryClock
    private let log: LibraryLog
    /// How long another process's claim stands without being renewed; held rows are renewed
    /// every quarter of it.
    let lease: TimeInterval

    /// Claims in `store`'s database, on its connection: a claim's transaction is this library's
    /// own, never taken for another writer's commit.
    init(store: StateStore, log: LibraryLog, lease: TimeInterval = defaultLease, clock: LibraryClock = .system) {
        self.store = store
        self.log = log
        self.lease = lease
        self.clock = clock
    }

    /// Takes `name`'s claim now, or nil when someone who may still be working holds it.
    /// Blocking (it takes the writer lock): run it off the actor.
    /// - Throws: `libraryClosed` once `close()` was called; `cannotSave` when the state cannot
    ///   be written.
    func take(_ name: String) throws(LibraryError) -> IssueClaim? {
        try store.lock.hold { () throws(LibraryError) -> IssueClaim? in try takeHoldingLock(name) }
    }

    /// `take` for a caller that holds the writer lock.
    private func takeHoldingLock(_ name: String) throws(LibraryError) -> IssueClaim? {
        let (held, closed) = holding.withLock { ($0.names[name] != nil, $0.closed) }
        // A closed library takes nothing: a waiter ends with the error rather than waiting on.
        if closed { throw .libraryClosed(path: store.lock.folder.path) }
        if held { return nil }
        // Unique across processes and instances.
        let token = UUID().uuidString
        let time = clock.now()
        // Registered before its row is written: another thread of this process that reads the
        // row next (its take waits for the writer lock) must find it live.
        Self.heldInProcess.withLock { _ = $0.insert(token) }
        let written = Result { () throws(LibraryError) -> Bool in
            try write { database throws(SQLiteFailure) -> Bool in
                var taken = false
                try database.transaction { () throws(SQLiteFailure) in
                    if let holder = try OwnerRow.read(name, in: database), isLive(holder, at: time) { return }
                    try OwnerRow(name: name, token: token, pid: getpid(), renewed: time).write(in: database)
                    taken = true
                }
                return taken
            }
        }
        guard case .success(true) = written else {
            Self.heldInProcess.withLock { _ = $0.remove(token) }
            return try written.map { _ in nil }.get()
        }
        let startRenewing = holding.withLock { holding -> Bool in
            holding.names[name] = token
            defer { holding.renewing = true }
            return !holding.renewing
        }
        if startRenewing { scheduleRenewal() }
        return IssueClaim(name: name, token: token, claims: self)
    }

    /// Waits until `name`'s claim is free and takes it (trying every tenth of a second on the
    /// library's clock, each try on a thread of its own); nil when the calling task is cancelled
    /// first, or when `seconds` (if given) have passed.
    func wait(for name: String, within seconds: TimeInterval? = nil) async throws(LibraryError) -> IssueClaim? {
        let deadline = seconds.map { clock.now() + $0 }
        while !Task.isCancelled {
            let taken = await BlockingWork.run { Result { () throws(LibraryError) in try self.take(name) } }
            if let claim = try taken.get() {
                guard !Task.isCancelled else {
                    claim.release()
                    return nil
                }
                return claim
            }
            if let deadline, clock.now() >= deadline { return nil }
            await clock.sleep(0.1)
        }
        return nil
    }

    /// Whether this instance still holds `name`'s claim, by the database: false when it never
    /// took it, gave it back, or lost it to another owner (its lease ran out while the process was
    /// suspended, or the row was taken over). Checked at an install's commit point, so that an
    /// owner that lost its claim commits nothing; a state that cannot be read says no.
    func holds(_ name: String) -> Bool {
        guard let token = holding.withLock({ holding in holding.names[name].flatMap { holding.lost.contains($0) ? nil : $0 } })
        else { return false }
        let row = try? write { database throws(SQLiteFailure) in try OwnerRow.read(name, in: database) }
        return row?.token == token
    }

    /// Whether anyone who may still be working holds a claim; clears the owners nobody is any
    /// more (a process that died), and deletes the rows of issues that are gone. The caller holds
    /// the writer lock, which keeps new claims out meanwhile (opening's repair).
    func anyHeldHoldingLock() throws(LibraryError) -> Bool {
        let time = clock.now()
        return try write { database throws(SQLiteFailure) -> Bool in
            var held = false
            try database.transaction { () throws(SQLiteFailure) in
                for row in try OwnerRow.all(in: database) {
                    if isLive(row, at: time) { held = true } else { try OwnerRow.clear(row.name, token: row.token, in: database) }
                }
                try OwnerRow.pruneOrphans(in: database)
            }
            return held
        }
    }

    /// Gives the claim with `token` back: this process sees it free at once, others once its owner
    /// is cleared, on a thread of its own (the caller, often the library's actor, never waits for
    /// the connection or another process's write; the token is this taking's alone, so a late
    /// clearing never touches a later claim; an owner whose clearing failed is dead to every process
    /// once its lease ran out).
    fileprivate func release(name: String, token: String) {
        Self.heldInProcess.withLock { _ = $0.remove(token) }
        let closed = holding.withLock { holding -> Bool in
            if holding.names[name] == token { holding.names[name] = nil }
            holding.lost.remove(token)
            return holding.closed
        }
        // Closing gave every row of this instance back.
        guard !closed else { return }
        releases.enter()
        BlockingWork.start { [self] in
            defer { releases.leave() }
            do throws(LibraryError) {
                try write { database throws(SQLiteFailure) in try OwnerRow.clear(name, token: token, in: database) }
            } catch {
                // Once closed, closing gave it back.
                if case .libraryClosed = error { return }
                log(.notice, "the claim of \(name) was not given back yet: \(error)")
            }
        }
    }

    /// Stops renewing: what this instance still holds is given back (it is closing: nothing of
    /// its work goes on). Called before the store closes.
    func close() {
        waitForReleases()
        let held = holding.withLock { holding -> [String: String] in
            holding.closed = true
            return holding.names
        }
        for (name, token) in held {
            Self.heldInProcess.withLock { _ = $0.remove(token) }
            try? write { database throws(SQLiteFailure) in try OwnerRow.clear(name, token: token, in: database) }
        }
    }

    /// Waits until every claim given back is cleared in the state. Blocking.
    func waitForReleases() {
        releases.wait()
    }

    /// Whether `row`'s holder may still be working at `time`. A row renewed more than a lease in
    /// the future is no one's: written by a clock far ahead, or by hand, it would otherwise hold
    /// the issue for as long as its pid runs.
    private func isLive(_ row: OwnerRow, at time: Double) -> Bool {
        if row.pid == getpid() { return Self.heldInProcess.current.contains(row.token) }
        return ProcessLiveness.isRunning(row.pid) && abs(time - row.renewed) < lease
    }

    /// Runs `body` on the store's connection, between its commits, without syncing its
    /// transaction to the disk: a claim is worth nothing after a power cut (its holder is gone),
    /// and the next commit of the state syncs the log, claims' pages with it.
    private func write<Result>(_ body: (SQLiteDatabase) throws(SQLiteFailure) -> Result) throws(LibraryError) -> Result {
        try store.withConnection { database throws(SQLiteFailure) -> Result in
            try database.execute("PRAGMA synchronous = NORMAL")
            defer { try? database.execute("PRAGMA synchronous = FULL") }
            return try body(database)
        }
    }

    /// Renews every held row a quarter of the lease from now (on the library's clock), and again
    /// after that while any is held; a row another owner took meanwhile is marked lost.
    private func scheduleRenewal() {
        let clock = clock
        let interval = lease / 4
        Task { [weak self] in
            await clock.sleep(interval)
            BlockingWork.start { [weak self] in self?.renew() }
        }
    }

    private func renew() {
        let held = holding.withLock { holding -> [String: String]? in
            guard !holding.names.isEmpty, !holding.closed else {
                holding.renewing = false
                return nil
            }
            return holding.names
        }
        guard let held else { return }
        let time = clock.now()
        let kept = try? write { database throws(SQLiteFailure) -> Set<String> in
            var kept = Set<String>()
            try database.transaction { () throws(SQLiteFailure) in
                for (name, token) in held where try OwnerRow.renew(name, token: token, at: time, in: database) {
                    kept.insert(token)
                }
            }
            return kept
        }
        if let kept {
            let lost = Set(held.values).subtracting(kept)
            if !lost.isEmpty {
                holding.withLock { $0.lost.formUnion(lost) }
                log(.notice, "\(lost.count) claim(s) were taken over after their lease ran out")
            }
        }
        scheduleRenewal()
    }
}

/// A claim taken: give it back with `release()` (once the work on the issue's files ended).
final class IssueClaim: Sendable {
    /// The issue.
    let name: String
    fileprivate let token: String
    private let claims: IssueClaims
    private let released = Locked(false)

    fileprivate init(name: String, token: String, claims: IssueClaims) {
        self.name = name
        self.token = token
        self.claims = claims
    }

    deinit { release() }

    /// Gives the claim back; later calls do nothing.
    func release() {
        guard !released.exchange(true) else { return }
        claims.release(name: name, token: token)
    }
}
