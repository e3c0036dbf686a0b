import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// `download(_:)` runs on the issue's lifecycle too, as a transfer on the in-process engine: its
/// row is saved under the issue's claim before a byte moves, its bytes, install and failure are
/// the lifecycle's events, and a process that dies mid-transfer leaves a pending download that
/// the background engine's reconcile leaves alone.
@Suite("In-process transfers on the lifecycle", .timeLimit(.minutes(2)), .tags(.needsServer))
struct InProcessLifecycleTests {
    @Test func aDownloadIsATransferOfTheLifecycleFromRowToInstall() async throws {
        try await Testbed.with { bed in
            try bed.publish([
                .init("a", day: 1, normal: Testbed.IssueSpec.pages(scale: "", imageBytes: 300_000, seed: 1), location: "slow/"),
                .init("b", day: 2),
            ])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            try await library.startDownload("a")
            var row: TransferRecord?
            for _ in 0..<500 {
                row = await library.state.transfers["a"]
                if row?.stage == .transferring { break }
                try await Task.sleep(nanoseconds: 10_000_000)
            }
            #expect(row?.engine == .inProcess)
            #expect(row?.stage == .transferring)
            #expect(row?.generation == 1)
            #expect(await library.issue(named: "a")?.status.label == "downloading")
            #expect(await library.backgroundTransfers.isEmpty, "an in-process transfer is not a background one")
            // Another process sees the row as committed.
            let other = try bed.library()
            #expect(await other.state.transfers["a"]?.runsInBackground == false)
            #expect(await other.state.transfers["a"]?.isActive == true)
            await other.close()

            _ = try await library.download("a")
            let ended = try #require(await library.state.transfers["a"])
            #expect(!ended.isActive && ended.engine == .inProcess && ended.generation == 1 && ended.lastError == nil)
            #expect(await library.issue(named: "a")?.status == .available)

            // A failure ends the row with its reason.
            try FileManager.default.removeItem(at: bed.nginx.root.appendingPathComponent("b/b.zip"))
            await #expect(throws: LibraryError.self) { try await library.download("b") }
            #expect(await library.state.transfers["b"]?.isActive == false)
            #expect(await library.lastTransferError(of: "b")?.contains("404") == true)
            #expect(await library.issue(named: "b")?.status == IssueStatus.none)
            await library.close()
        }
    }

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

    /// A process killed between the install's commit and the transfer's end: the next open ends
    /// the row (its record names the bundle as installed), so the issue is not shown updating.
    @Test func anInstallCommittedBeforeItsEndIsEndedAtOpen() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            _ = try await library.download("a")
            await library.close()
            try bed.sqlite3("UPDATE transfers SET stage = 'transferring'")
            let reopened = try bed.library()
            #expect(await reopened.state.transfers["a"]?.isActive == false)
            #expect(await reopened.issue(named: "a")?.status == .available)
            await reopened.close()
        }
    }
}
