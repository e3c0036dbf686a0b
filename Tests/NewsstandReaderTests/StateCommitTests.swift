import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// How state changes reach `library.sqlite`: off the actor and the cooperative pool, in the order
/// they were made, and nothing removed unless its commit succeeds.
@Suite("State commits", .timeLimit(.minutes(1)), .tags(.needsServer))
struct StateCommitTests {
    /// #23 item 14: `remove` while another program holds `library.sqlite` locked (a transaction of
    /// its own) fails with SQLite's "database is locked", and the issue is exactly as it was: its
    /// content in place, available, after a reopen too. Once the other program lets go it works.
    @Test func aRemoveTheStateCannotRecordRemovesNothing() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let issue = try await library.download("a")
            let before = FolderSnapshot(issue.contentURL)
            let holder = try Self.holdDatabase(StateStoreTests.databasePath(bed))
            defer { holder.killNow() }
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
            // SIGKILL: a child of the test process starts with SIGTERM blocked.
            holder.killNow()
            _ = holder.wait()
            await library.close()

            let reopened = try bed.library()
            #expect(await reopened.issue(named: "a")?.status == .available)
            try await reopened.remove("a")
            #expect(await reopened.issue(named: "a")?.status == IssueStatus.none)
            #expect(!FileManager.default.fileExists(atPath: issue.contentURL.path))
        }
    }

    /// The same through the command line, as #23 item 14 found it.
    @Test func theCommandLineRemoveUnderAnotherProgramsLockLosesNothing() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let shelf = bed.libraryFolder.path
            #expect(try Shell.run(Shell.newsstand, ["library", shelf, "refresh", bed.catalogURL.absoluteString]).status == 0)
            #expect(try Shell.run(Shell.newsstand, ["library", shelf, "download", "a"]).status == 0)
            let holder = try Self.holdDatabase(StateStoreTests.databasePath(bed))
            defer { holder.killNow() }
            let removed = try Shell.run(Shell.newsstand, ["library", shelf, "remove", "a"])
            #expect(removed.status == 1)
            #expect(removed.stderr.contains("database is locked"), "\(removed.stderr)")
            // SIGKILL: a child of the test process starts with SIGTERM blocked.
            holder.killNow()
            _ = holder.wait()
            let list = try Shell.run(Shell.newsstand, ["library", shelf, "list"]).stdout
            #expect(list.hasPrefix("a\t") && list.contains("\tavailable"), "\(list)")
            #expect(FileManager.default.fileExists(atPath: bed.libraryFolder.appendingPathComponent("Issues/a/pages.plist").path))
        }
    }

    /// Commits wait for the writer lock on threads of their own: while several wait (more than the
    /// cooperative pool has threads), the library's actor and the pool stay free, and once the lock
    /// is free every change is committed, the latest value of each row last.
    @Test func commitsNeverHoldTheActorOrThePool() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let library = try bed.library { $0.lockTimeout = 30 }
            try await library.refresh(from: bed.catalogURL)
            let folder = try OpenFolder.open(bed.libraryFolder)
            // Waits out a copy of the library's released lock in a process forked a moment ago.
            let held = try #require(try FileLock.acquire("library.lock", in: folder, timeout: 5))
            let writers = (0..<8).map { step in
                Task {
                    try await library.setReadingPosition(ReadingPosition(article: step, page: 0), of: step % 2 == 0 ? "a" : "b")
                }
            }
            // The positions are set on the actor at once; their commits wait for the lock.
            while await library.readingPosition(of: "b") != ReadingPosition(article: 7, page: 0) {
                try await Task.sleep(nanoseconds: 10_000_000)
            }
            #expect(await library.issues.count == 2, "the actor answers while commits wait")
            let pool = await withTaskGroup(of: Int.self) { group in
                for value in 0..<16 { group.addTask { value } }
                return await group.reduce(0, +)
            }
            #expect(pool == 120, "the cooperative pool runs while commits wait")
            #expect(
                try Shell.run("sqlite3", [StateStoreTests.databasePath(bed), "SELECT count(*) FROM reading_positions"]).stdout
                    == "0\n")
            held.release()
            for writer in writers { try await writer.value }
            let rows = try Shell.run(
                "sqlite3", [StateStoreTests.databasePath(bed), "SELECT name, article FROM reading_positions ORDER BY name"])
            #expect(rows.stdout == "a|6\nb|7\n")
        }
    }

    /// Starts a program that holds `library.sqlite` in an exclusive transaction until killed, and
    /// returns once it holds it.
    static func holdDatabase(_ path: String) throws -> BackgroundProcess {
        let holder = try BackgroundProcess(
            "python3",
            [
                "-c",
                """
                import sqlite3, sys, time
                db = sqlite3.connect(sys.argv[1], isolation_level=None)
                db.execute("BEGIN EXCLUSIVE")
                print("holding", flush=True)
                time.sleep(600)
                """, path,
            ])
        guard BackgroundProcess.poll(timeout: 10, { holder.output.contains("holding") }) else {
            holder.killNow()
            throw TestFailure("the database was not locked: \(holder.errors)")
        }
        return holder
    }
}
