import Foundation
import NewsstandTestSupport

/// The library database of a testbed's folder, for the nginx suites that read or change it with
/// the `sqlite3` shell (the fast tier's `ScriptedBed` does it in process).
extension Testbed {
    /// The folder's path as SQLite is given it (links resolved).
    var databasePath: String {
        URL(fileURLWithPath: libraryFolder.path).resolvingSymlinksInPath().appendingPathComponent("library.sqlite").path
    }

    /// Runs `sql` on the library's database with the `sqlite3` shell.
    func sqlite3(_ sql: String) throws {
        let result = try Shell.run("sqlite3", [databasePath, sql])
        guard result.status == 0 else { throw TestFailure("sqlite3: \(result.stderr)") }
    }
}
