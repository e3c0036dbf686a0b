import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// `download(_:)` runs on the issue's lifecycle too, as a transfer on the in-process engine: its
/// row is saved under the issue's claim before a byte moves, its bytes, install and failure are
/// the lifecycle's events, and a process that dies mid-transfer leaves a pending download that
/// the background engine's reconcile leaves alone. On a scripted transport (the fast tier); the
/// process killed mid-transfer is `KilledInProcessDownloadTests`'.
@Suite("In-process transfers on the lifecycle", .timeLimit(.minutes(1)))
struct InProcessLifecycleTests {
    @Test func aDownloadIsATransferOfTheLifecycleFromRowToInstall() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1, normal: ScriptedBed.bigBundle, location: "slow/"), .init("b", day: 2)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let events = await library.events()
            try await library.startDownload("a")
            // Its first bytes are the lifecycle's (the transfer is under way), and the rest is
            // held at slow/'s pause until the test lets it go.
            for await event in events {
                if case .progress("a", _) = event { break }
            }
            await bed.slow.reached()
            let row = await library.state.transfers["a"]
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

            bed.releaseSlow()
            _ = try await library.download("a")
            let ended = try #require(await library.state.transfers["a"])
            #expect(!ended.isActive && ended.engine == .inProcess && ended.generation == 1 && ended.lastError == nil, "\(ended)")
            #expect(await library.issue(named: "a")?.status == .available)

            // A failure ends the row with its reason.
            bed.remove("b/b.zip")
            await #expect(throws: LibraryError.self) { try await library.download("b") }
            #expect(await library.state.transfers["b"]?.isActive == false)
            #expect(await library.lastTransferError(of: "b")?.contains("404") == true)
            #expect(await library.issue(named: "b")?.status == IssueStatus.none)
            await library.close()
        }
    }

    /// A process killed between the install's commit and the transfer's end: the next open ends
    /// the row (its record names the bundle as installed), so the issue is not shown updating.
    @Test func anInstallCommittedBeforeItsEndIsEndedAtOpen() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            _ = try await library.download("a")
            await library.close()
            try bed.sqlite("UPDATE transfers SET stage = 'transferring'")
            let reopened = try bed.library()
            #expect(await reopened.state.transfers["a"]?.isActive == false)
            #expect(await reopened.issue(named: "a")?.status == .available)
            await reopened.close()
        }
    }
}
