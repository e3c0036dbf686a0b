import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// Two processes attached to one engine each handle its events on rows that may be older than
/// the other's commit. An event's change (made without the issue's claim) is committed only while
/// the database still holds the rows it was made from; an install, a restart or a cancel by the
/// other (under the claim) is never written over.
@Suite("Claimless writes", .timeLimit(.minutes(1)))
struct ClaimlessWriteTests {
    /// Library `first` hands "a" to its engine; library `second`, on the same folder, follows the
    /// same job and installs it. `first` then handles a progress event of that job from its own,
    /// older rows, and commits: before, its "transferring" row and "downloading" record went over
    /// the installed issue (the aria2 endurance test's "installed twice" and "downloading with
    /// no transfer").
    @Test func aStaleEventGivesWayToAnotherProcessesInstall() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let scratch = try Shell.temporaryFolder("claimless")
            let first = try bed.library()
            try await first.refresh(from: bed.catalogURL)
            let firstEngine = ScriptedEngine(scratch: scratch)
            await first.useBackgroundEngine(.custom(firstEngine))
            try await first.startBackgroundDownload("a")
            let id = TransferID(name: "a", generation: 1)
            #expect(firstEngine.jobs.map(\.id) == [id])

            let second = try bed.library()
            let secondEngine = ScriptedEngine(scratch: scratch)
            try await secondEngine.start(try #require(firstEngine.jobs.first))
            await second.useBackgroundEngine(.custom(secondEngine))
            let job = try #require(secondEngine.jobs.first)
            secondEngine.finish(id, from: scratch, body: try bed.served(String(job.url.path.dropFirst())))
            for _ in 0..<300 where await second.issue(named: "a")?.status != .available {
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            await second.waitForInstalls()
            #expect(await second.issue(named: "a")?.status == .available)

            let told = Locked<[LibraryEvent]>([])
            let stream = await first.events()
            let listening = Task { for await event in stream { told.withLock { $0.append(event) } } }
            await first.take(.progressed(id, DownloadProgress(bytesReceived: 10, bytesExpected: 100)))
            #expect(await first.issue(named: "a")?.status.label == "downloading", "the event is taken on the old rows")
            try await first.save()
            #expect(await first.issue(named: "a")?.status == .available, "the other writer's rows are taken in")
            #expect(await first.backgroundTransfers.isEmpty)
            // The shelf is told that "a" is available after all.
            for _ in 0..<100 where told.current.last != .statusChanged(name: "a", .available) {
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            listening.cancel()
            #expect(told.current.last == .statusChanged(name: "a", .available), "\(told.current)")
            await first.close()
            await second.close()

            let reopened = try bed.library()
            #expect(await reopened.issue(named: "a")?.status == .available)
            #expect(await reopened.state.transfers["a"]?.isActive == false)
            await reopened.close()
        }
    }

    /// A claimless change whose rows another writer left alone (or changed only in the bytes
    /// so far) is committed, though that writer committed meanwhile; one whose transfer that
    /// writer ended is not.
    @Test func aClaimlessChangeHoldsWhileItsRowsDo() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let first = try bed.library()
            try await first.refresh(from: bed.catalogURL)
            let engine = ScriptedEngine(scratch: try Shell.temporaryFolder("claimless"))
            await first.useBackgroundEngine(.custom(engine))
            try await first.startBackgroundDownload("a")
            let id = TransferID(name: "a", generation: 1)
            await first.take(.progressed(id, DownloadProgress(bytesReceived: 1, bytesExpected: 100)))
            try await first.save()
            let revision = try bed.sqliteRows("SELECT revision FROM ownership WHERE name = 'a'")
            #expect(revision.count == 1 && revision != [""], "the hand-over gave \"a\" a revision: \(revision)")

            let second = try bed.library()
            try await second.setReadingPosition(ReadingPosition(article: 1, page: 2), of: "b")
            // Only the bytes so far differ: no change of the issue's life.
            await second.take(.progressed(id, DownloadProgress(bytesReceived: 5, bytesExpected: 100)))
            try await second.save()
            await first.take(.progressed(id, DownloadProgress(bytesReceived: 40, bytesExpected: 100)))
            try await first.save()
            let reread = try bed.library()
            #expect(await reread.state.transfers["a"]?.bytesReceived == 40)
            #expect(await reread.state.transfers["a"]?.stage == .transferring)
            #expect(await reread.readingPosition(of: "b") == ReadingPosition(article: 1, page: 2))
            await reread.close()
            #expect(
                try bed.sqliteRows("SELECT revision FROM ownership WHERE name = 'a'") == revision,
                "progress events revise nothing")

            // `second` ends the transfer under the claim: `first`'s next claimless change is
            // dropped.
            await second.synchronize()
            await second.handle(.cancelled, of: "a")
            try await second.save()
            #expect(try bed.sqliteRows("SELECT revision FROM ownership WHERE name = 'a'") != revision, "an owner's write revises")
            await first.take(.progressed(id, DownloadProgress(bytesReceived: 60, bytesExpected: 100)))
            try await first.save()
            #expect(await first.state.transfers["a"]?.isActive == false)
            let last = try bed.library()
            #expect(await last.state.transfers["a"]?.isActive == false)
            #expect(await last.issue(named: "a")?.status == IssueStatus.none)
            await last.close()
            await first.close()
            await second.close()
        }
    }
}
