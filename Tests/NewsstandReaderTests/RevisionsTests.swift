import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// An owner's commit gives an issue a new revision only when it changes the issue's life, judged
/// against the rows the database holds; an engine event's change (`ClaimlessWrite`) revises
/// nothing, and an issue nobody could base an event on (no ownership row, no transfer) is not
/// looked at.
@Suite("Revisions")
struct RevisionsTests {
    let database: SQLiteDatabase
    let statements: StateStatements
    var state = Self.transferring

    /// An engine event's change of life: "a"'s file received, as its hand-off names it.
    static func receive(_ state: inout LibraryState) {
        let file = state.transfers["a"].map { TransferHandOff.receivedName(of: $0.id) }
        state.changeWithoutClaim("a") { state in
            state.transfers["a"]?.stage = .received
            state.transfers["a"]?.receivedFile = file
        }
    }

    /// An issue and its transfer under way (generation 1): a row that reads back as received
    /// once it names its file.
    static let transferring: LibraryState = {
        var state = IssueLifecycleTests.storedRows
        state.transfers["a"]?.generation = 1
        state.transfers["a"]?.stage = .transferring
        return state
    }()

    init() throws {
        database = try SQLiteDatabase(path: ":memory:", access: .readWrite(create: true))
        try database.execute(StateSchema.create)
        statements = try StateStatements(database)
    }

    private func revision() throws -> Int64? {
        let select = try database.prepare("SELECT revision FROM ownership WHERE name = 'a'")
        guard try select.step() else { return nil }
        return select.int64(0)
    }

    /// Commits `state`'s pending rows as `LibraryState` would, and returns what was revised.
    private mutating func commit() throws -> [String: Int64] {
        let batch = state.pendingChanges
        var revised: [String: Int64] = [:]
        try database.transaction { () throws(SQLiteFailure) in revised = try statements.write(batch) }
        state.markCommitted(batch, revised: revised)
        return revised
    }

    @Test mutating func onlyAChangeOfTheIssuesLifeRevisesIt() throws {
        // The first commit makes the transfer row: a new life, a row and a revision.
        let first = try commit()
        #expect(first.keys.sorted() == ["a"])
        #expect(try revision() == first["a"])
        #expect(state.revisions["a"] == first["a"])

        // The bytes so far, resume data and last error are not the issue's life.
        state.transfers["a"]?.bytesReceived = 4096
        state.transfers["a"]?.lastError = "stalled"
        state.issues["a"]?.status = .none
        #expect(try commit().isEmpty)
        #expect(try revision() == first["a"])

        // A new title (a refresh's) or a new stage is.
        state.issues["a"]?.title = "A, again"
        let titled = try commit()
        #expect(titled["a"] != nil && titled["a"] != first["a"])
        state.transfers["a"]?.stage = .queued
        let queued = try commit()
        #expect(queued["a"] != nil && queued["a"] != titled["a"])
        #expect(try revision() == queued["a"])
    }

    @Test mutating func anEngineEventsChangeIsConditionalAndRevisesOnlyALifeChange() throws {
        let first = try #require(try commit()["a"])
        // Progress only: committed on the revision it was made from, which stays.
        state.changeWithoutClaim("a") { $0.transfers["a"]?.bytesReceived = 10 }
        let progress = state.pendingChanges
        #expect(progress.claimless["a"]?.basis == first)
        var stored = state
        stored.revisions["a"] = first &+ 1
        #expect(progress.conflicts(with: stored) == ["a"], "another writer's change of life since")
        #expect(progress.conflicts(with: state).isEmpty)
        #expect(try commit().isEmpty)
        #expect(try revision() == first)

        // A change of life (the file received): a new revision, and a change made on top of it
        // while it was being committed is based on that one.
        Self.receive(&state)
        let received = state.pendingChanges
        state.changeWithoutClaim("a") { $0.transfers["a"]?.bytesReceived = 20 }
        var revised: [String: Int64] = [:]
        try database.transaction { () throws(SQLiteFailure) in revised = try statements.write(received) }
        state.markCommitted(received, revised: revised)
        let second = try #require(revised["a"])
        #expect(second != first)
        #expect(state.pendingChanges.claimless["a"]?.basis == second)
    }

    @Test mutating func anIssueWithoutTransferOrOwnerIsNotLookedAt() throws {
        let record = state.issues["a"]
        state = LibraryState(scale: .normal)
        state.issues["a"] = record
        #expect(try commit().isEmpty)
        #expect(try revision() == nil)
        // Once it has an owner's row (a claim taken), its next change of life is.
        try database.execute("INSERT INTO ownership (name, token, pid, renewed) VALUES ('a', 't', 1, 0)")
        state.issues["a"]?.title = "A, again"
        let revised = try commit()
        #expect(revised["a"] != nil)
        #expect(try revision() == revised["a"])
    }

    @Test mutating func aStoredRowThatDoesNotReadBackCountsAsChanged() throws {
        let first = try #require(try commit()["a"])
        try database.execute("UPDATE issues SET status = 'exploded' WHERE name = 'a'")
        // The record written again as memory has it, which the stored one cannot be compared with.
        let record = try #require(state.issues["a"])
        state.issues["a"] = nil
        state.issues["a"] = record
        let revised = try commit()
        #expect(revised["a"] != nil && revised["a"] != first)
    }

    /// `save()` may take a batch before the commit before it came back: a change in it made on
    /// top of this library's own committed change of life is still based on the revision that
    /// change replaced. When another writer committed meanwhile (the commit then reads the tables
    /// and checks), it is no conflict; a change based on another writer's revision is one.
    @Test func aChangeMadeOnTopOfThisLibrarysOwnCommitIsNoConflict() async throws {
        let url = try Shell.temporaryFolder("revisions")
        try await IssueLibrary(folder: url).close()
        let folder = try OpenFolder.open(url)
        let lock = WriterLock(folder: folder, timeout: 5)
        func open() throws -> StateStore {
            try lock.hold { () throws(LibraryError) in try StateStore.open(in: folder, scale: .normal, lock: lock, openFlags: 0) }
                .0
        }
        let (ours, theirs) = (try open(), try open())
        var state = Self.transferring
        let first = try ours.commit(state.pendingChanges)
        state.markCommitted(state.pendingChanges, revised: first.revised)
        let base = try #require(first.revised["a"])

        // Batch 1: the file received (a change of life); batch 2, taken before batch 1 came back,
        // adds the bytes so far on top of it, still on `base`.
        Self.receive(&state)
        let received = state.pendingChanges
        state.changeWithoutClaim("a") { $0.transfers["a"]?.bytesReceived = 99 }
        let onTop = state.pendingChanges
        #expect(onTop.claimless["a"]?.basis == base)
        let given = try #require(try ours.commit(received).revised["a"])
        // Another process writes something else: the next commit reads the tables and checks.
        var other = LibraryState(scale: .normal)
        other.readingPositions["b"] = ReadingPosition(article: 1, page: 0)
        _ = try theirs.commit(other.pendingChanges)
        let outcome = try ours.commit(onTop)
        #expect(outcome.dropped.isEmpty, "a change on top of this library's own was dropped")
        #expect(outcome.stored?.state.transfers["a"]?.bytesReceived == 99)
        #expect(outcome.stored?.state.revisions["a"] == given)

        // The other process changes the issue's life: a change on the older revision gives way.
        var theirsState = try #require(outcome.stored?.state)
        theirsState.transfers["a"]?.stage = .ended
        theirsState.transfers["a"]?.receivedFile = nil
        _ = try theirs.commit(theirsState.pendingChanges)
        state.changeWithoutClaim("a") { $0.transfers["a"]?.bytesReceived = 100 }
        #expect(try ours.commit(state.pendingChanges).dropped == ["a"])
        ours.close()
        theirs.close()
    }
}
