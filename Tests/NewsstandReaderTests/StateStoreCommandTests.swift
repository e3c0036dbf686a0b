import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// What `newsstand library` says of a library whose state it cannot use: the executable's exit
/// status and message (the library's own error is checked in the fast tier, `StateStoreTests`).
@Suite("Library state from the command line", .timeLimit(.minutes(1)), .tags(.needsTools))
struct StateStoreCommandTests {
    @Test func aDamagedDatabaseIsAClearErrorOfTheCommand() async throws {
        try await ScriptedBed.with { bed in
            try await StateStoreTests.closedLibrary(bed)
            let path = bed.databasePath
            let garbage = ScriptedBed.randomBytes(count: 8192, seed: 3)
            try garbage.write(to: URL(fileURLWithPath: path))
            let cli = try Shell.run(Shell.newsstand, ["library", bed.libraryFolder.path, "list"])
            #expect(cli.status == 1)
            #expect(
                cli.stderr
                    == "newsstand library: error: cannot open library state: '\(path)' cannot be read: file is not a database (SQLite code 26)\n"
            )
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
        }
    }
}
