import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// How state changes reach `library.sqlite`: off the actor and the cooperative pool, in the order
/// they were made, and nothing removed unless its commit succeeds. On a scripted transport, with
/// "another program" holding the database as a second SQLite connection in this process (SQLite
/// locks between connections of one process as between processes): the fast tier. The command
/// line under that lock is `StateCommitCommandTests`'.
@Suite("State commits", .timeLimit(.minutes(1)))
struct StateCommitTests {
    /// #23 item 14: `remove` while another program holds `library.sqlite` locked (a transaction of
    /// its own) fails with SQLite's "database is locked", and the issue is exactly as it was: its
    /// content in place, available, after a reopen too. Once the other program lets go it works.
    @Test func aRemoveTheStateCannotRecordRemovesNothing() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let issue = try await library.download("a")
            let before = FolderSnapshot(issue.contentURL)
            let holder = try bed.holdDatabase()
            defer { holder.release() }
            let error = await #expect(throws: LibraryError.self) { try await library.remove("a") }
            guard case .cannotSave(_, let reason)? = error else {
                Issue.record("not a failed save: \(String(describing: error))")
                return
            }
            #expect(reason.contains("database is locked"), "\(reason)")
            #expect(await library.issue(named: "a")?.status == .available)
            #expect(FolderSnapshot(issue.contentURL) == before, "the content is back, whole")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: bed.libraryFolder.appendingPathComponent("Issues").path) == [
                    "a"
                ])
            holder.release()
            await library.close()

            let reopened = try bed.library()
            #expect(await reopened.issue(named: "a")?.status == .available)
            try await reopened.remove("a")
            #expect(await reopened.issue(named: "a")?.status == IssueStatus.none)
            #expect(!FileManager.default.fileExists(atPath: issue.contentURL.path))
        }
    }

    /// Commits wait for the writer lock on threads of their own: while several wait (more than the
    /// cooperative pool has threads), the library's actor and the pool stay free, and once the lock
    /// is free every change is committed, the latest value of each row last.
    @Test func commitsNeverHoldTheActorOrThePool() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let library = try bed.library { $0.lockTimeout = 30 }
            try await library.refresh(from: bed.catalogURL)
            let folder = try OpenFolder.open(bed.libraryFolder)
            // Waits out a copy of the library's released lock in a process forked a moment ago.
            let held = try #require(try FileLock.acquire("library.lock", in: folder, timeout: 5))
            // One writer after another reaches the actor (tasks start in no set order, and the
            // latest value of a row is the one set last): each sets its position on the actor at
            // once, then waits for the lock with its commit while the next one starts.
            var writers: [Task<Void, any Error>] = []
            for step in 0..<8 {
                let name = step % 2 == 0 ? "a" : "b"
                let position = ReadingPosition(article: step, page: 0)
                writers.append(Task { try await library.setReadingPosition(position, of: name) })
                let deadline = Date().addingTimeInterval(30)
                while await library.readingPosition(of: name) != position {
                    try #require(Date() < deadline, "writer \(step) never set its position on the actor")
                    try await Task.sleep(nanoseconds: 5_000_000)
                }
            }
            #expect(await library.issues.count == 2, "the actor answers while commits wait")
            let pool = await withTaskGroup(of: Int.self) { group in
                for value in 0..<16 { group.addTask { value } }
                return await group.reduce(0, +)
            }
            #expect(pool == 120, "the cooperative pool runs while commits wait")
            #expect(try bed.sqliteRows("SELECT count(*) FROM reading_positions") == ["0"])
            held.release()
            for writer in writers { try await writer.value }
            let rows = try bed.sqliteRows("SELECT name, article FROM reading_positions ORDER BY name", columns: 2)
            #expect(rows == ["a|6", "b|7"])
        }
    }
}
