import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// An issue's claim is a row taken in a transaction: one owner at a time, in this process or
/// another; an owner that died or stopped renewing loses it; nothing stays locked while it is held.
@Suite("issue claims")
struct IssueClaimsTests {
    /// A library folder with its state made, and claims over it.
    private struct Folder {
        let url: URL
        let database: String
        let lock: WriterLock

        init() async throws {
            url = try Shell.temporaryFolder("claims")
            let library = try IssueLibrary(folder: url)
            await library.close()
            database = url.appendingPathComponent("library.sqlite").path
            lock = WriterLock(folder: try OpenFolder.open(url), timeout: 5)
        }

        func claims(
            lease: TimeInterval = IssueClaims.defaultLease,
            now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }
        )
            throws -> IssueClaims
        {
            let folder = try OpenFolder.open(url)
            let (store, _) = try lock.hold { () throws(LibraryError) in
                try StateStore.open(in: folder, scale: .normal, lock: lock, openFlags: 0)
            }
            return IssueClaims(
                store: store, log: .silent, lease: lease,
                clock: LibraryClock(now: now, sleep: LibraryClock.system.sleep))
        }

        /// Writes a claim row as another process would have left it.
        func plant(_ name: String, pid: Int32, renewed: Double) throws {
            let database = try SQLiteDatabase(path: database, access: .readWrite(create: false))
            try OwnerRow(name: name, token: "planted", pid: pid, renewed: renewed).write(in: database)
            database.close()
        }

        func rows() throws -> [OwnerRow] {
            let database = try SQLiteDatabase(path: database, access: .readWrite(create: false))
            defer { database.close() }
            return try OwnerRow.all(in: database)
        }
    }

    @Test func oneOwnerAtATimeAcrossInstancesOfOneProcess() async throws {
        let folder = try await Folder()
        let first = try folder.claims()
        let second = try folder.claims()
        let claim = try #require(try first.take("a"))
        #expect(try first.take("a") == nil, "a second take by the same owner conflicts, as a second download would")
        #expect(try second.take("a") == nil)
        #expect(first.holds("a") && !second.holds("a"))
        #expect(try folder.rows().map(\.name) == ["a"])
        let other = try #require(try second.take("b"), "another issue is free")
        claim.release()
        #expect(!first.holds("a"))
        let taken = try #require(try second.take("a"), "a claim given back is free at once")
        taken.release()
        other.release()
        second.waitForReleases()
        #expect(try folder.rows() == [], "nothing stays behind")
    }

    @Test func aClaimOfAProcessThatIsGoneIsTakenOverAtOnce() async throws {
        let folder = try await Folder()
        // Int32.max is above any pid the kernel hands out: no process has it.
        try folder.plant("a", pid: Int32.max, renewed: Date().timeIntervalSince1970)
        let claims = try folder.claims()
        let claim = try #require(try claims.take("a"))
        #expect(try folder.rows().map(\.pid) == [getpid()])
        claim.release()
    }

    @Test func aRunningProcessHoldsItsClaimUntilItsLeaseRunsOut() async throws {
        let folder = try await Folder()
        let now = Date().timeIntervalSince1970
        // The test process's parent runs as long as the test does.
        try folder.plant("a", pid: getppid(), renewed: now)
        let claims = try folder.claims(lease: 60, now: { now + 59 })
        #expect(try claims.take("a") == nil, "renewed within the lease: its owner may still be working")
        let later = try folder.claims(lease: 60, now: { now + 61 })
        let claim = try #require(try later.take("a"), "not renewed for longer than the lease: taken over")
        claim.release()
        later.waitForReleases()

        // A row that says it was renewed far in the future (a clock ahead, or a hand) holds nothing.
        try folder.plant("b", pid: getppid(), renewed: now + 3600)
        let ahead = try #require(try later.take("b"), "renewed a lease ahead of now: no one's")
        ahead.release()
    }

    @Test func opening_sRepairSeesLiveClaimsAndDropsDeadOnes() async throws {
        let folder = try await Folder()
        let now = Date().timeIntervalSince1970
        try folder.plant("dead", pid: Int32.max, renewed: now)
        let claims = try folder.claims()
        #expect(try folder.lock.hold { () throws(LibraryError) in try claims.anyHeldHoldingLock() } == false)
        #expect(try folder.rows() == [], "a dead owner's row is removed")
        try folder.plant("live", pid: getppid(), renewed: now)
        #expect(try folder.lock.hold { () throws(LibraryError) in try claims.anyHeldHoldingLock() } == true)
    }

    /// A holder renews its row; one whose row another owner took (its lease ran out while it was
    /// suspended) finds out, and commits nothing (`commitStaged` checks `holds`).
    @Test func aHolderFindsOutThatItsClaimWasTakenOver() async throws {
        let folder = try await Folder()
        let claims = try folder.claims(lease: 0.2)
        let claim = try #require(try claims.take("a"))
        let first = try #require(try folder.rows().first?.renewed)
        try await waitUntil { (try folder.rows().first?.renewed ?? first) > first }
        #expect(claims.holds("a"))
        try folder.plant("a", pid: getppid(), renewed: Date().timeIntervalSince1970)
        try await waitUntil { !claims.holds("a") }
        claim.release()
        claims.waitForReleases()
        #expect(try folder.rows().map(\.token) == ["planted"], "giving back a lost claim leaves the new owner's row")
    }

    /// While claims are held and renewed, the process holds no lock on any file of the folder
    /// but SQLite's: the claim is a row, not a `flock`.
    @Test func aHeldClaimHoldsNoFileLock() async throws {
        let folder = try await Folder()
        let claims = try folder.claims(lease: 0.2)
        let claim = try #require(try claims.take("a"))
        let own = try FolderLocks.held(by: getpid(), in: folder.url)
        #expect(own.subtracting(["library.sqlite", "library.sqlite-shm", "library.sqlite-wal"]).isEmpty, "\(own)")
        #expect(!own.contains("library.lock"))
        claim.release()
    }

    /// An owner whose claim was taken over while it worked (its lease ran out while the app was
    /// suspended, and another process took the issue) commits nothing at the install's commit
    /// point: its download ends `issueBusy`, the issue is not installed by it, and the new
    /// owner's row stands.
    @Test func anOwnerThatLostItsClaimCommitsNothing() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1, normal: ScriptedBed.bigBundle, location: "slow/")])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let started = AsyncStream<Void>.makeStream()
            let download = Task { try await library.download("a") { _ in started.continuation.yield() } }
            for await _ in started.stream { break }
            let now = Date().timeIntervalSince1970
            try bed.sqlite("UPDATE ownership SET token = 'taken-over', pid = \(getppid()), renewed = \(now) WHERE name = 'a'")
            bed.releaseSlow()
            await #expect(throws: LibraryError.issueBusy(name: "a")) { try await download.value }
            #expect(await library.issue(named: "a")?.status != .available)
            #expect(try bed.sqliteRows("SELECT token FROM ownership WHERE token IS NOT NULL") == ["taken-over"])
            await library.close()
        }
    }

    private func waitUntil(_ condition: () throws -> Bool) async throws {
        for _ in 0..<500 where try !condition() { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(try condition(), "did not happen within 5 s")
    }
}
