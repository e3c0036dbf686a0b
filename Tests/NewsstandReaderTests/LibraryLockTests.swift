import Foundation
import NewsstandReader
import NewsstandTestSupport
import Testing

/// One writer per library folder. `flock` locks belong to an open file description, so two
/// `IssueLibrary` instances in one process conflict exactly like two processes (the CLI tests
/// run two processes).
@Suite("Library lock", .timeLimit(.minutes(1)))
struct LibraryLockTests {
    @Test func aSecondLibraryOnTheSameFolderIsRefusedUntilTheFirstCloses() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let first = try bed.library()
            try await first.refresh(from: bed.catalogURL)
            let path = bed.libraryFolder.standardizedFileURL.path
            #expect(throws: LibraryError.libraryInUse(path: path)) { try bed.library { $0.lockTimeout = 0 } }
            // Another path to the same folder is the same folder.
            let other = URL(fileURLWithPath: bed.libraryFolder.path + "/./Issues/..")
            #expect(throws: LibraryError.libraryInUse(path: other.standardizedFileURL.path)) {
                try IssueLibrary(folder: other)
            }

            await first.close()
            await #expect(throws: LibraryError.libraryClosed(path: path)) { try await first.refresh() }
            await #expect(throws: LibraryError.libraryClosed(path: path)) { try await first.download("a") }
            #expect(await first.issues.map(\.name) == ["a"], "a closed library can still be read")

            let second = try bed.library()
            #expect(await second.issues.map(\.name) == ["a"])
            try await second.download("a")
            #expect(await second.issue(named: "a")?.status == .available)
        }
    }

    @Test func aSecondLibraryWaitsForTheFirstWhenToldTo() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let first = try bed.library()
            try await first.refresh(from: bed.catalogURL)
            let closer = Task {
                try await Task.sleep(nanoseconds: 300_000_000)
                try await first.download("a")
                await first.close()
            }
            // Opening blocks its thread while it waits: not on the concurrency pool.
            let second = try await Self.onThread { try bed.library { $0.lockTimeout = 30 } }
            try await closer.value
            #expect(await second.issue(named: "a")?.status == .available, "it saw what the first wrote before closing")
        }
    }

    @Test func theLockDiesWithItsLibrary() async throws {
        try await Testbed.with { bed in
            do {
                let first = try bed.library()
                _ = await first.issues
            }
            // Released when the first instance is gone, without close().
            let second = try await Self.onThread { try bed.library { $0.lockTimeout = 10 } }
            #expect(await second.issues.isEmpty)
        }
    }

    static func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }
}
