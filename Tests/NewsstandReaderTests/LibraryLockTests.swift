import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Several writers on one folder: no lock is held while nothing is written, each commit takes
/// the writer lock for its transaction only and merges the others' rows, and an issue's files
/// have one owner at a time (its claim). `flock` locks belong to an open file description, so two
/// `IssueLibrary` instances in one process meet each other exactly as two processes do (the CLI
/// tests run two processes). On a scripted transport (the fast tier): the other program's SQLite
/// is a connection of this process's own, which SQLite's locks keep apart as they do processes.
@Suite("Library lock", .timeLimit(.minutes(1)))
struct LibraryLockTests {
    @Test func twoLibrariesOnOneFolderKeepEachOthersRows() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let first = try bed.library()
            try await first.refresh(from: bed.catalogURL)
            // Opens while the first is open (the first holds the lock only while it writes), and
            // sees what it committed. With the testbed's lock timeout, not 0: the second's writes
            // follow the first's at once, and a process a parallel test forks holds a copy of the
            // first's released lock until its exec (this failed now and then under load).
            let second = try bed.library()
            #expect(await second.issues.map(\.name) == ["b", "a"])

            try await first.setReadingPosition(ReadingPosition(article: 1, page: 0), of: "a")
            try await second.setReadingPosition(ReadingPosition(article: 2, page: 3), of: "b")
            try await second.setCurrentlyReadingIssue("b")
            try await first.download("a")
            // The second's next commit merged the first's rows under its own.
            try bed.publish([.init("a", day: 1), .init("b", day: 2), .init("c", day: 3)])
            try await second.refresh()
            #expect(await second.issue(named: "a")?.status == .available, "the first's download is not undone")
            #expect(await second.readingPosition(of: "a") == ReadingPosition(article: 1, page: 0))
            try await first.reload()
            #expect(await first.issues.map(\.name) == ["c", "b", "a"])
            #expect(await first.currentlyReadingIssue?.name == "b")
            await first.close()
            await second.close()

            let reopened = try bed.library()
            #expect(await reopened.issues.map(\.name) == ["c", "b", "a"])
            #expect(await reopened.issue(named: "a")?.status == .available)
            #expect(await reopened.readingPosition(of: "a") == ReadingPosition(article: 1, page: 0))
            #expect(await reopened.readingPosition(of: "b") == ReadingPosition(article: 2, page: 3))
            #expect(await reopened.currentlyReadingIssue?.name == "b")
            #expect(try await bed.violations(of: reopened, allowsDownloading: false) == [])
        }
    }

    /// Between commits the library holds neither the writer lock nor a SQLite transaction nor a
    /// claim: another program can lock the folder and write the database while it is open.
    @Test func nothingIsLockedWhileNothingIsWritten() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            try await library.download("a")
            try await library.setReadingPosition(ReadingPosition(article: 0, page: 1), of: "a")

            let folder = try OpenFolder.open(bed.libraryFolder)
            // A few seconds, not 0: a process a parallel test forks holds a copy of the library's
            // lock descriptor until its exec closes it. A lock the library kept would still be
            // held after them.
            let lock = try #require(try FileLock.acquire("library.lock", in: folder, timeout: 5), "library.lock is held")
            lock.release()
            #expect(throws: Never.self, "a write transaction is held") { try bed.sqlite("BEGIN IMMEDIATE; COMMIT;") }
            // A claim is given back on a thread of its own (the actor never waits for the
            // connection): its row goes a moment after the download returned, and stays gone.
            #expect(
                await eventually { (try? bed.sqliteRows("SELECT count(*) FROM ownership WHERE token IS NOT NULL")) == ["0"] },
                "claims are held while nothing runs: \((try? bed.sqliteRows("SELECT * FROM ownership WHERE token IS NOT NULL")) ?? [])"
            )
            // The kernel's table of locks holds none on library.lock (SQLite's own are POSIX locks,
            // and the ones WAL keeps while a connection is open are shared: see StateStore).
            var info = stat()
            try #require(stat(bed.libraryFolder.appendingPathComponent("library.lock").path, &info) == 0)
            let flocks = try String(contentsOfFile: "/proc/locks", encoding: .utf8).split(separator: "\n")
                .filter { $0.contains("FLOCK") && $0.split(separator: " ").contains { $0.hasSuffix(":\(info.st_ino)") } }
            #expect(flocks == [], "\(flocks)")
            #expect(await library.issue(named: "a")?.status == .available)
        }
    }

    /// A commit waits `lockTimeout` for another writer's lock, then fails with `libraryInUse`;
    /// what it carried stays unsaved and goes with the next commit, after the other writer lets go.
    @Test func aWriteWaitsForTheLockThenFailsAndForgetsNothing() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let library = try bed.library { $0.lockTimeout = 0.3 }
            try await library.refresh(from: bed.catalogURL)
            let folder = try OpenFolder.open(bed.libraryFolder)
            // Waits out a copy of the library's released lock in a process forked a moment ago.
            let held = try #require(try FileLock.acquire("library.lock", in: folder, timeout: 5))
            let path = bed.libraryFolder.standardizedFileURL.path
            await #expect(throws: LibraryError.libraryInUse(path: path)) {
                try await library.setReadingPosition(ReadingPosition(article: 4, page: 0), of: "a")
            }
            #expect(await library.readingPosition(of: "a") == ReadingPosition(article: 4, page: 0), "kept in memory")
            held.release()
            try await library.setReadingPosition(ReadingPosition(article: 5, page: 0), of: "b")
            await library.close()
            let reopened = try bed.library()
            #expect(
                await reopened.readingPosition(of: "a") == ReadingPosition(article: 4, page: 0),
                "the failed commit's row went with the next")
            #expect(await reopened.readingPosition(of: "b") == ReadingPosition(article: 5, page: 0))
        }
    }

    /// Two libraries download one issue at once: one transfer (the issue's claim), and both end
    /// with the issue available; a removal while the other downloads is refused, typed.
    @Test func oneDownloadPerIssueAcrossLibraries() async throws {
        try await ScriptedBed.with { bed in
            let entries = try bed.publish([.init("f-1", day: 1, normal: ScriptedBed.bigBundle, location: "slow/")])
            let size = try #require(entries[0].contentSize)
            let first = try bed.library()
            try await first.refresh(from: bed.catalogURL)
            let second = try bed.library()
            let downloading = Task { try await first.download("f-1") }
            // The first's transfer is held at slow/'s pause, its claim taken.
            await bed.slow.reached()
            await #expect(throws: LibraryError.issueBusy(name: "f-1")) { try await second.remove("f-1") }
            // The second joins while the first still downloads (it shows the issue downloading
            // at once, then waits for the claim), and the first goes on.
            let events = await second.events()
            let joining = Task { try await second.download("f-1") }
            for await event in events {
                if case .statusChanged("f-1", .downloading) = event { break }
            }
            bed.releaseSlow()
            let joined = try await joining.value
            #expect(joined.status == .available)
            #expect(try await downloading.value.status == .available)
            #expect(
                bed.requests("slow/f-1/f-1.zip") == [LoggedRequest("200 \(size) GET /slow/f-1/f-1.zip \"-\"")!], "one transfer")
            try await second.remove("f-1")
            try await first.reload()
            #expect(await first.issue(named: "f-1")?.status == IssueStatus.none)
            #expect(try await bed.violations(of: second, allowsDownloading: false) == [])
        }
    }

    /// The lock is never taken through a link: a link planted at `library.lock` is refused with its
    /// path, and what it points at is left as it was. (The claims are rows of the state.)
    @Test func noLockIsTakenThroughALink() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let outside = try Shell.temporaryFolder("lock-target").appendingPathComponent("precious")
            try Data("keep".utf8).write(to: outside)
            await library.close()

            let lock = bed.libraryFolder.appendingPathComponent("library.lock")
            try FileManager.default.removeItem(at: lock)
            try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: outside)
            #expect(
                throws: LibraryError.cannotSave(
                    path: lock.standardizedFileURL.path, reason: "cannot lock it: it is a symbolic link (to '\(outside.path)')")
            ) { try bed.library() }
            #expect(try String(contentsOf: outside, encoding: .utf8) == "keep")
        }
    }
}
