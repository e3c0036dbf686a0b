import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// A `newsstand library download` process killed mid-transfer, on nginx.
@Suite("In-process transfers of a killed process", .timeLimit(.minutes(2)), .tags(.needsServer))
struct KilledInProcessDownloadTests {
    /// A `newsstand library download` killed mid-transfer: the next library finds a pending
    /// in-process transfer; a background engine's reconcile neither restarts nor cancels it, and
    /// `resumePendingDownloads()` finishes it as the same generation.
    @Test func aKilledDownloadIsPendingAndTheBackgroundReconcileLeavesIt() async throws {
        try await Testbed.with { bed in
            try bed.publish([
                .init("a", day: 1, normal: Testbed.IssueSpec.pages(scale: "", imageBytes: 400_000, seed: 2), location: "slow/")
            ])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            await library.close()
            let child = try BackgroundProcess(Shell.newsstand, ["library", bed.libraryFolder.path, "download", "a"])
            var sawRow = false
            for _ in 0..<500 where !sawRow {
                try await Task.sleep(nanoseconds: 20_000_000)
                let result = try Shell.run(
                    "sqlite3", [bed.databasePath, "SELECT stage FROM transfers WHERE name = 'a'"])
                // Bytes so far are not committed on their own: the row says queued until a commit.
                sawRow = result.stdout == "queued\n" || result.stdout == "transferring\n"
            }
            child.killNow()
            _ = child.wait()
            #expect(sawRow, "the row was saved before the bytes came")

            let reopened = try bed.library()
            #expect(await reopened.pendingDownloads == ["a"])
            let row = try #require(await reopened.state.transfers["a"])
            #expect(row.isActive && row.engine == .inProcess)
            let engine = ScriptedEngine(scratch: try Shell.temporaryFolder("inprocess"))
            let result = await reopened.useBackgroundEngine(.custom(engine))
            #expect(result == ReconcileResult())
            #expect(engine.startCount == 0)
            #expect(await reopened.resumePendingDownloads() == ["a"])
            _ = try await reopened.download("a")
            let ended = try #require(await reopened.state.transfers["a"])
            #expect(!ended.isActive && ended.generation == row.generation)
            #expect(try await LibraryInvariants.violations(of: reopened, in: bed, allowsDownloading: false) == [])
            await reopened.close()
        }
    }
}
