import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// The library's state in SQLite: the migration from `library.json`, and the database as a file
/// from outside (damaged, another program's, newer, linked, holding values we never write). The
/// catalog and bundles come from a scripted transport, and the database is read and tampered
/// with through SQLite in this process (`ScriptedBed.sqlite`): the fast tier.
@Suite("Library state", .timeLimit(.minutes(1)))
struct StateStoreTests {
    /// A library with two issues, closed, for a test to tamper with.
    static func closedLibrary(_ bed: ScriptedBed) async throws {
        try bed.publish([.init("a", day: 1), .init("b", day: 2)])
        let library = try bed.library()
        try await library.refresh(from: bed.catalogURL)
        await library.close()
    }

    @Test func aLibraryJSONIsMigratedWithEveryIssueStatusPositionCoverAndValidator() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2), .init("c", day: 3)])
            let etag = try #require(bed.transport.etag("issues.plist"))
            let base = bed.baseURL.absoluteString
            // What the library wrote before SQLite (format 1), as it wrote it.
            func issue(_ name: String, day: Int, status: Any) -> [String: Any] {
                [
                    "name": name, "title": "Issue \(name)", "date": day * 86_400, "hasUpdate": false, "isInCatalog": true,
                    "remoteCoverURL": "\(base)\(name)/cover@2x.png", "remoteContentURL": "\(base)\(name)/\(name)@2x.zip",
                    "status": status,
                ]
            }
            var a = issue("a", day: 1, status: ["available": [:] as [String: Any]])
            a["installedSHA256"] = String(repeating: "ab", count: 32)
            a["installedContentURL"] = "\(base)a/a@2x.zip"
            a["coverFileName"] = "a.png"
            a["cachedCoverURL"] = "\(base)a/cover@2x.png"
            a["summary"] = "Spring"
            let b = issue("b", day: 2, status: ["downloading": ["_0": ["bytesReceived": 0, "bytesExpected": 4096]]])
            let c = issue("c", day: 3, status: ["none": [:] as [String: Any]])
            let state: [String: Any] = [
                "formatVersion": 1, "scale": "retina", "catalogURL": bed.catalogURL.absoluteString, "catalogETag": etag,
                "currentlyReading": "a", "readingPositions": ["a": ["article": 2, "page": 1]],
                "issues": ["a": a, "b": b, "c": c],
            ]
            let folder = bed.libraryFolder
            for sub in ["Issues/a", "Covers", "Downloads"] {
                try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            try Data("page".utf8).write(to: folder.appendingPathComponent("Issues/a/pages.plist"))
            try Data("cover".utf8).write(to: folder.appendingPathComponent("Covers/a.png"))
            try JSONSerialization.data(withJSONObject: state).write(to: folder.appendingPathComponent("library.json"))

            let library = try bed.library(scale: .normal)
            #expect(library.scale == .retina)
            let issues = await library.issues
            #expect(issues.map(\.name) == ["c", "b", "a"])
            #expect(issues.map(\.status.label) == ["none", "downloading", "available"])
            let first = try #require(issues.last)
            #expect(first.summary == "Spring")
            #expect(first.installedScale == .retina)
            #expect(first.coverFileURL == folder.appendingPathComponent("Covers/a.png"))
            #expect(await library.readingPosition(of: "a") == ReadingPosition(article: 2, page: 1))
            #expect(await library.currentlyReadingIssue?.name == "a")
            #expect(await library.catalogURL == bed.catalogURL)
            let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
            #expect(
                files.contains("library.sqlite") && files.contains("library.json.migrated") && !files.contains("library.json"))
            // The validators came along: an unchanged catalog costs a 304.
            #expect(try await library.refresh().notModified)
            #expect(bed.requests("issues.plist").map(\.status) == [304])
            // And the pending download continues.
            #expect(try await library.download("b").status == .available)

            await library.close()
            let reopened = try bed.library()
            #expect(await reopened.issues.map(\.status.label) == ["none", "available", "available"])
            #expect(await reopened.readingPosition(of: "a") == ReadingPosition(article: 2, page: 1))
        }
    }

    @Test func aDamagedDatabaseIsAClearErrorAndStaysAsItWas() async throws {
        try await ScriptedBed.with { bed in
            try await Self.closedLibrary(bed)
            let path = bed.databasePath
            let garbage = ScriptedBed.randomBytes(count: 8192, seed: 3)
            try garbage.write(to: URL(fileURLWithPath: path))
            #expect(
                throws: LibraryError.stateUnusable(
                    .unreadable(path: path, reason: SQLiteFailure(code: 26, message: "file is not a database")))
            ) {
                try bed.library()
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
            // What the command line says of it: `StateStoreCommandTests` (it runs the executable).
        }
    }

    /// Version 1 (before issue 14) had no index columns: opening adds them, empty, and keeps
    /// every row; the issues read as before, without an index.
    @Test func aVersion1DatabaseIsMigratedKeepingEveryRow() async throws {
        try await ScriptedBed.with { bed in
            try await Self.closedLibrary(bed)
            try bed.sqlite(
                """
                ALTER TABLE issues DROP COLUMN content_index_url; ALTER TABLE issues DROP COLUMN content_index_size;
                ALTER TABLE issues DROP COLUMN content_index_sha256; ALTER TABLE issues DROP COLUMN update_bytes;
                ALTER TABLE issues DROP COLUMN access;
                PRAGMA user_version = 1;
                """)
            let library = try bed.library()
            #expect(await library.issues.map(\.name) == ["b", "a"])
            #expect(await library.issues.allSatisfy { $0.updateBytes == nil && $0.status == .none })
            try await library.refresh()
            await library.close()
            #expect(try bed.sqliteRows("PRAGMA user_version") == ["6"])
            let tables = try bed.sqliteRows("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'transfers'")
            #expect(tables == ["transfers"], "version 3's table came with the migration")
            let columns = try bed.sqliteRows(
                "SELECT name FROM pragma_table_info('issues') WHERE name LIKE 'content_index%' OR name = 'update_bytes'")
            #expect(columns == ["content_index_url", "content_index_size", "content_index_sha256", "update_bytes"])
        }
    }

    /// Version 3 (before issue 24) had no access column: opening adds it, every issue free, and
    /// the next refresh reads the catalog's `Access`.
    @Test func aVersion3DatabaseIsMigratedWithEveryIssueFree() async throws {
        try await ScriptedBed.with { bed in
            try await Self.closedLibrary(bed)
            try bed.sqlite("ALTER TABLE issues DROP COLUMN access; PRAGMA user_version = 3;")
            let library = try bed.library()
            #expect(await library.issues.map(\.name) == ["b", "a"])
            #expect(await library.issues.allSatisfy { $0.access == .free })
            await library.close()
            #expect(try bed.sqliteRows("PRAGMA user_version") == ["6"])
            #expect(try bed.sqliteRows("SELECT DISTINCT access FROM issues") == ["free"])
        }
    }

    /// Version 5 kept claims in a table of their own: opening drops it (its holders were the old
    /// version's processes) for the ownership table, and keeps every other row.
    @Test func aVersion5DatabaseIsMigratedToTheOwnershipTable() async throws {
        try await ScriptedBed.with { bed in
            try await Self.closedLibrary(bed)
            try bed.sqlite(
                """
                DROP TABLE ownership;
                CREATE TABLE claims (
                    name TEXT PRIMARY KEY NOT NULL, token TEXT NOT NULL, pid INTEGER NOT NULL, renewed REAL NOT NULL
                ) WITHOUT ROWID;
                INSERT INTO claims VALUES ('a', 'old', \(getpid()), \(Date().timeIntervalSince1970));
                INSERT INTO transfers VALUES
                    ('b', 0, 'ended', 'inProcess', 'user', 'https://x.test/b.zip', NULL, NULL, 'normal', NULL, 0, 0,
                     NULL, NULL, NULL);
                PRAGMA user_version = 5;
                """)
            let library = try bed.library()
            #expect(await library.issues.map(\.name) == ["b", "a"])
            try await library.download("a")
            #expect(await library.issue(named: "a")?.status == .available, "the old claim holds nothing")
            await library.close()
            #expect(try bed.sqliteRows("PRAGMA user_version") == ["6"])
            #expect(
                try bed.sqliteRows("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('claims', 'ownership')") == [
                    "ownership"
                ])
            // A transfer from before has a revision: an event's change based on it gives way to a
            // removal even once the row is pruned.
            #expect(try bed.sqliteRows("SELECT revision IS NOT NULL FROM ownership WHERE name = 'b'") == ["1"])
        }
    }

    @Test func aNewerSchemaOrAnotherProgramsDatabaseIsRefused() async throws {
        try await ScriptedBed.with { bed in
            try await Self.closedLibrary(bed)
            let path = bed.databasePath
            try bed.sqlite("PRAGMA user_version = 7")
            #expect(throws: LibraryError.stateUnusable(.newerSchema(path: path, found: 7, supported: 6))) { try bed.library() }
            try FileManager.default.removeItem(atPath: path)
            try bed.sqlite("CREATE TABLE notes (text TEXT); INSERT INTO notes VALUES ('mine')")
            #expect(throws: LibraryError.stateUnusable(.notALibrary(path: path))) { try bed.library() }
            #expect(try bed.sqliteRows("SELECT text FROM notes") == ["mine"], "another program's database is not touched")
        }
    }

    @Test func aLinkedDatabaseOrJournalIsRefusedAndItsTargetUntouched() async throws {
        try await ScriptedBed.with { bed in
            try await Self.closedLibrary(bed)
            let path = bed.databasePath
            let elsewhere = try Shell.temporaryFolder("elsewhere")
            let target = elsewhere.appendingPathComponent("other.sqlite")
            try FileManager.default.moveItem(atPath: path, toPath: target.path)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target.path)
            let before = try Data(contentsOf: target)
            #expect(throws: LibraryError.stateUnusable(.notARegularFile(path: path, kind: "a symbolic link"))) {
                try bed.library()
            }
            #expect(try Data(contentsOf: target) == before)

            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.moveItem(atPath: target.path, toPath: path)
            let victim = elsewhere.appendingPathComponent("victim")
            try Data("victim".utf8).write(to: victim)
            // The library keeps its (empty) log between connections since issue 35: a link takes its place.
            try? FileManager.default.removeItem(atPath: path + "-wal")
            try FileManager.default.createSymbolicLink(atPath: path + "-wal", withDestinationPath: victim.path)
            #expect(throws: LibraryError.stateUnusable(.notARegularFile(path: path + "-wal", kind: "a symbolic link"))) {
                try bed.library()
            }
            #expect(try String(contentsOf: victim, encoding: .utf8) == "victim")
            try FileManager.default.removeItem(atPath: path + "-wal")
            #expect(try await bed.library().issues.count == 2, "usable again once the link is gone")
        }
    }

    @Test func aStateFileOverTheSizeLimitIsNotRead() async throws {
        try await ScriptedBed.with { bed in
            try await Self.closedLibrary(bed)
            let path = bed.databasePath
            // Sparse: 300 MiB on paper, nothing on disk.
            #expect(FileManager.default.createFile(atPath: path + "-wal", contents: nil))
            let wal = try #require(FileHandle(forWritingAtPath: path + "-wal"))
            try wal.truncate(atOffset: 300 << 20)
            try wal.close()
            #expect(throws: LibraryError.stateUnusable(.tooLarge(path: path, limit: 256 << 20))) { try bed.library() }
            #expect(FileStatus.size(of: URL(fileURLWithPath: path + "-wal")) == 300 << 20)
        }
    }

    /// A row holding a value the library never writes is left out and named
    /// (`stateProblems`), and the rest of the library opens and works (#23 item 14): one bad row
    /// no longer refuses the whole library. The bad row is left in the file as it was.
    @Test func aRowWithValuesTheLibraryNeverWritesIsLeftOutAndTheRestOpens() async throws {
        try await ScriptedBed.with { bed in
            try await Self.closedLibrary(bed)
            let path = bed.databasePath
            let cases: [(sql: String, problem: StateError)] = [
                (
                    "UPDATE issues SET cover_file = '../../../etc/passwd' WHERE name = 'a'",
                    .badRow(path: path, name: "a", reason: "cover_file '../../../etc/passwd' is not a plain file name")
                ),
                (
                    "UPDATE issues SET cover_file = NULL, name = '../evil' WHERE name = 'a'",
                    .badRow(path: path, name: "../evil", reason: "the name is not safe as a file name")
                ),
                (
                    "UPDATE issues SET name = 'a', status = 'exploded' WHERE name = '../evil'",
                    .badRow(path: path, name: "a", reason: "status 'exploded' is not none, downloading or available")
                ),
                (
                    "UPDATE issues SET status = 'none', title = zeroblob(100000) WHERE name = 'a'",
                    .badRow(path: path, name: "a", reason: "title is not UTF-8 text of at most 65536 bytes")
                ),
            ]
            for (sql, problem) in cases {
                try bed.sqlite(sql)
                let library = try bed.library()
                #expect(await library.stateProblems == [problem])
                #expect(await library.issues.map(\.name) == ["b"], "the other issue is there")
                try await library.setReadingPosition(ReadingPosition(article: 1, page: 2), of: "b")
                await library.close()
            }
            // The bad row is as it was: nothing rewrote or deleted it.
            #expect(try bed.sqliteRows("SELECT length(title) FROM issues WHERE name = 'a'") == ["100000"])
            // A refresh writes the row again from the catalog (republished, so not a 304): the issue
            // is back.
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            await library.close()
            let reopened = try bed.library()
            #expect(await reopened.stateProblems == [])
            #expect(await reopened.issues.map(\.name) == ["b", "a"])
            #expect(await reopened.readingPosition(of: "b") == ReadingPosition(article: 1, page: 2))
        }
    }

    /// Reading positions that are not two whole numbers ≥ 0 (a negative article, a real, text, a
    /// number past `Int64`) are left out one by one, each named; the others are kept.
    @Test func aMalformedReadingPositionIsLeftOutAndNamed() async throws {
        try await ScriptedBed.with { bed in
            try await Self.closedLibrary(bed)
            let path = bed.databasePath
            try bed.sqlite(
                """
                INSERT INTO reading_positions VALUES ('a', 2147483648, 3);
                INSERT INTO reading_positions VALUES ('b', -1, 0);
                INSERT INTO reading_positions VALUES ('c', 1.5, 0);
                INSERT INTO reading_positions VALUES ('d', 0, 'ten');
                INSERT INTO reading_positions VALUES ('e', 9223372036854775808, 0);
                """)
            let library = try bed.library()
            #expect(
                await library.stateProblems == [
                    .badReadingPosition(path: path, issue: "b", reason: "article -1 is not a whole number ≥ 0"),
                    .badReadingPosition(path: path, issue: "c", reason: "article 1.5 is not a whole number ≥ 0"),
                    .badReadingPosition(path: path, issue: "d", reason: "page 'ten' is not a whole number ≥ 0"),
                    .badReadingPosition(
                        path: path, issue: "e", reason: "article 9.223372036854776e+18 is not a whole number ≥ 0"),
                ])
            // 2^31 is a position an Int holds on every platform the reader runs on (64-bit).
            #expect(await library.readingPosition(of: "a") == ReadingPosition(article: 1 << 31, page: 3))
            #expect(await library.issues.map(\.name) == ["b", "a"])
            try await library.setReadingPosition(ReadingPosition(article: 0, page: 1), of: "b")
            await library.close()
            #expect(await (try bed.library()).stateProblems.count == 3, "the position written again replaced the bad one")
        }
    }

    /// A bad row the library writes again is no longer a problem of the library that wrote it,
    /// at once: after a commit of its own, and after one that found another writer's commit
    /// first (which reads the tables before writing).
    @Test func aBadRowWrittenAgainIsNoLongerAProblem() async throws {
        try await ScriptedBed.with { bed in
            try await Self.closedLibrary(bed)
            let path = bed.databasePath
            try bed.sqlite(
                """
                INSERT INTO reading_positions VALUES ('a', -1, 0);
                INSERT INTO reading_positions VALUES ('b', 'ten', 0);
                """)
            let library = try bed.library()
            #expect(await library.stateProblems.count == 2)

            try await library.setReadingPosition(ReadingPosition(article: 1, page: 0), of: "a")
            #expect(
                await library.stateProblems == [
                    .badReadingPosition(path: path, issue: "b", reason: "article 'ten' is not a whole number ≥ 0")
                ])

            let other = try bed.library()
            try await other.setReadingPosition(ReadingPosition(article: 3, page: 0), of: "a")
            await other.close()
            try await library.setReadingPosition(ReadingPosition(article: 2, page: 0), of: "b")
            #expect(await library.stateProblems == [])
            #expect(await library.readingPosition(of: "a") == ReadingPosition(article: 3, page: 0), "the other writer's row")
            await library.close()
            #expect(await (try bed.library()).stateProblems == [])
        }
    }

    @Test func aHostileLibraryJSONIsNotMigrated() async throws {
        try await ScriptedBed.with { bed in
            let folder = bed.libraryFolder
            let record: [String: Any] = [
                "name": "../x", "title": "X", "date": 0, "hasUpdate": false, "isInCatalog": true,
                "remoteCoverURL": "http://h/x.png", "remoteContentURL": "http://h/x.zip",
                "status": ["none": [:] as [String: Any]],
            ]
            let state: [String: Any] = ["formatVersion": 1, "scale": "normal", "issues": ["../x": record]]
            try JSONSerialization.data(withJSONObject: state).write(to: folder.appendingPathComponent("library.json"))
            let json = URL(fileURLWithPath: folder.path).resolvingSymlinksInPath().appendingPathComponent("library.json").path
            #expect(
                throws: LibraryError.stateUnusable(
                    .badRow(path: json, name: "../x", reason: "the name or cover file is not a safe file name"))
            ) { try bed.library() }
            let files = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
            #expect(files.contains("library.json") && !files.contains("library.sqlite"))
        }
    }
}
