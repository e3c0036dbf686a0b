import Foundation
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
    var state = IssueLifecycleTests.storedRows

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

    @Test mutating func anEngineEventsChangeRevisesNothingAndIsConditional() throws {
        let first = try #require(try commit()["a"])
        state.changeWithoutClaim("a") { $0.transfers["a"]?.stage = .transferring }
        let batch = state.pendingChanges
        #expect(batch.claimless["a"]?.basis == first)
        var revised: [String: Int64] = [:]
        try database.transaction { () throws(SQLiteFailure) in revised = try statements.write(batch) }
        #expect(revised.isEmpty)
        #expect(try revision() == first)

        // Another writer's owner write since: the same change is now a conflict.
        var stored = state
        stored.revisions["a"] = first &+ 1
        #expect(batch.conflicts(with: stored) == ["a"])
        #expect(batch.conflicts(with: state).isEmpty)
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
}
