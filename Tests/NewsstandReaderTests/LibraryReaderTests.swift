import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// `LibraryReader`, the read-only handle of an app extension: it reads what the writer commits,
/// while the writer is open and writing, and never writes. On a scripted transport (the fast
/// tier); a writer in another process is `LibraryReaderProcessTests`'.
@Suite("Library reader", .timeLimit(.minutes(1)))
struct LibraryReaderTests {
    @Test func aReaderSeesWhatTheWriterCommitsWhileItIsOpen() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let writer = try bed.library()
            try await writer.refresh(from: bed.catalogURL)
            let reader = try LibraryReader(folder: bed.libraryFolder)
            #expect(try await reader.issues() == (await writer.issues))
            #expect(try await reader.issue(named: "a")?.status == IssueStatus.none)

            try await writer.download("a")
            try await writer.setReadingPosition(ReadingPosition(article: 0, page: 0), of: "a")
            try await writer.setCurrentlyReadingIssue("a")
            #expect(try await reader.issue(named: "a") == (await writer.issue(named: "a")))
            #expect(try await reader.readingPosition(of: "a") == ReadingPosition(article: 0, page: 0))
            #expect(try await reader.currentlyReadingIssue()?.name == "a")
            let snapshot = try await reader.snapshot()
            #expect(snapshot.issues.map(\.name) == ["b", "a"])
            #expect(snapshot.readingPositions == ["a": ReadingPosition(article: 0, page: 0)])
            #expect(snapshot.currentlyReading == "a" && snapshot.problems == [])
            let content = try await reader.content(of: "a")
            #expect(content.articles.count == (try await writer.content(of: "a")).articles.count)
            #expect(content.title == (try await writer.content(of: "a")).title)
            await #expect(throws: ContentError.notAvailable(issue: "b")) { try await reader.content(of: "b") }
            #expect(try await reader.issue(named: "nope") == nil)
        }
    }

    /// The reader opens the state read-only for each call: `library.sqlite` and its write-ahead
    /// log are byte for byte what the writer left, and between calls it holds no descriptor.
    @Test func aReaderNeverWritesAndHoldsNothingBetweenCalls() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let writer = try bed.library()
            try await writer.refresh(from: bed.catalogURL)
            try await writer.setReadingPosition(ReadingPosition(article: 3, page: 1), of: "a")
            let files = ["library.sqlite", "library.sqlite-wal"].map { bed.libraryFolder.appendingPathComponent($0) }
            func fingerprint() throws -> [String] {
                try files.map { FileManager.default.fileExists(atPath: $0.path) ? try SHA256.hex(ofFileAt: $0) : "none" }
            }
            let before = try fingerprint()
            let reader = try LibraryReader(folder: bed.libraryFolder)
            for _ in 0..<3 {
                _ = try await reader.snapshot()
                _ = try await reader.readingPosition(of: "a")
                _ = try await reader.currentlyReadingIssue()
            }
            #expect(try fingerprint() == before)
            let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
            }
            let path = URL(fileURLWithPath: bed.libraryFolder.path).resolvingSymlinksInPath().path
            let open = descriptors.filter { $0.hasPrefix(path + "/library.sqlite") }
            // Only the writer's connection (the database and its -wal and -shm) has them open.
            #expect(Set(open).isSubset(of: Set(files.map { path + "/" + $0.lastPathComponent } + [path + "/library.sqlite-shm"])))
            await writer.close()
            let closed = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
            }.filter { $0.hasPrefix(path + "/library.sqlite") }
            _ = try await reader.snapshot()
            #expect(closed == [], "the reader keeps nothing open: \(closed)")
        }
    }

    /// What is not a library, or not one this reader can read without writing, is a typed error.
    @Test func aReaderRefusesWhatItCannotReadWithoutWriting() async throws {
        try await ScriptedBed.with { bed in
            let folder = bed.libraryFolder.standardizedFileURL
            #expect(throws: LibraryError.cannotOpen(path: folder.path, reason: "it holds no library yet (no library.sqlite)")) {
                try LibraryReader(folder: folder)
            }
            try await StateStoreTests.closedLibrary(bed)
            let path = bed.databasePath
            try bed.sqlite("UPDATE issues SET status = 'exploded' WHERE name = 'a'")
            let reader = try LibraryReader(folder: folder)
            let snapshot = try await reader.snapshot()
            #expect(snapshot.issues.map(\.name) == ["b"])
            #expect(
                snapshot.problems == [
                    .badRow(path: path, name: "a", reason: "status 'exploded' is not none, downloading or available")
                ])
            #expect(try await reader.issue(named: "a") == nil)

            try bed.sqlite("PRAGMA user_version = 1")
            await #expect(throws: LibraryError.stateUnusable(.olderSchema(path: path, found: 1, needed: 6))) {
                try await reader.issues()
            }
            try bed.sqlite("PRAGMA user_version = 9")
            await #expect(throws: LibraryError.stateUnusable(.newerSchema(path: path, found: 9, supported: 6))) {
                try await reader.issues()
            }
        }
    }
}
