import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// `newsstand library remove` while another program (Python's sqlite3) holds `library.sqlite`
/// locked, on nginx: the command fails and loses nothing (#23 item 14).
@Suite("State commits from the command line", .timeLimit(.minutes(1)), .tags(.needsServer))
struct StateCommitCommandTests {
    /// The same through the command line, as #23 item 14 found it.
    @Test func theCommandLineRemoveUnderAnotherProgramsLockLosesNothing() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let shelf = bed.libraryFolder.path
            #expect(try Shell.run(Shell.newsstand, ["library", shelf, "refresh", bed.catalogURL.absoluteString]).status == 0)
            #expect(try Shell.run(Shell.newsstand, ["library", shelf, "download", "a"]).status == 0)
            let holder = try Self.holdDatabase(bed.databasePath)
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
