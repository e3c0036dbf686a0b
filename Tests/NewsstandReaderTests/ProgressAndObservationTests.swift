import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandReaderObservation
import NewsstandTestSupport
import Observation
import Testing

/// What an app's UI binds to: a `Foundation.Progress` per download under one over all of them,
/// and the shelf's updates (`followShelf()`, `ShelfModel`), each in step with the events.
@Suite("Progress and observation", .timeLimit(.minutes(1)))
struct ProgressAndObservationTests {
    /// Progress values as a download reports them, kept from the transfer's thread.
    final class Values: @unchecked Sendable {  // `values` is Locked
        let values = Locked<[(received: Int64, total: Int64)]>([])
    }

    @Test func eachDownloadHasAProgressInStepWithItsEventsUnderOneOverall() async throws {
        try await ScriptedBed.with { bed in
            let entries = try bed.publish([
                .init("a", day: 1, normal: ScriptedBed.bigBundle), .init("b", day: 2, normal: ScriptedBed.bigBundle),
                .init("c", day: 3, normal: ScriptedBed.bigBundle, location: "slow/"),
            ])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            #expect(library.progress(of: "a") == nil)
            let events = await library.events()
            let seen = Values()
            async let a = library.download("a") { _ in
                if let progress = library.progress(of: "a") {
                    seen.values.withLock { $0.append((progress.completedUnitCount, progress.totalUnitCount)) }
                }
            }
            try await library.startDownload("b")
            _ = try await a
            try await library.download("b")
            #expect(library.progress(of: "a") == nil, "a finished download has none")
            #expect(library.progress.fractionCompleted == 1, "\(library.progress.fractionCompleted)")
            #expect(library.progress.totalUnitCount == 2000, "two downloads in the batch")
            let size = Int64(try #require(entries[0].contentSize))
            var reported: [DownloadProgress] = []
            for await event in events {
                if case .progress("a", let progress) = event { reported.append(progress) }
                if case .statusChanged("a", .available) = event { break }
            }
            // The handler runs after the Progress moved: each value it saw is the one reported.
            #expect(seen.values.current.map(\.received) == reported.map(\.bytesReceived))
            #expect(seen.values.current.allSatisfy { $0.total == size })
            #expect(reported.last == DownloadProgress(bytesReceived: size, bytesExpected: size))

            // A new batch starts again from zero (its body held part-way: on a fast transport it
            // could otherwise finish before the check).
            try await library.startDownload("c")
            #expect(library.progress.totalUnitCount == 1000)
            #expect(library.progress.fractionCompleted < 1)
            bed.releaseSlow()
            try await library.download("c")
        }
    }

    /// A background transfer has a `Progress` too (#34): made when it is handed to the engine,
    /// moved by the engine's progress, finished when it is installed, under the overall one.
    @Test func aBackgroundTransferHasAProgressInStepWithTheEngine() async throws {
        try await ScriptedBed.with { bed in
            let entries = try bed.publish([.init("a", day: 1)])
            let size = Int64(try #require(entries[0].contentSize))
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let engine = ScriptedEngine(scratch: try Shell.temporaryFolder("engine"))
            defer { try? FileManager.default.removeItem(at: engine.scratch) }
            await library.useBackgroundEngine(.custom(engine))
            try await library.startBackgroundDownload("a")
            let progress = try #require(library.progress(of: "a"), "made with the transfer")
            #expect(progress.totalUnitCount == size && progress.completedUnitCount == 0)
            let job = try #require(engine.jobs.first)
            engine.progress(job.id, DownloadProgress(bytesReceived: size / 2, bytesExpected: size))
            #expect(await eventually { progress.completedUnitCount == size / 2 })
            #expect(library.progress.fractionCompleted > 0 && library.progress.fractionCompleted < 1)
            engine.finish(job.id, from: engine.scratch, body: try bed.served(job.url.path.dropFirst().description))
            #expect(await eventually { library.progress(of: "a") == nil }, "finished with the transfer")
            await library.waitForInstalls()
            #expect(await library.issue(named: "a")?.status == .available)
            #expect(library.progress.fractionCompleted == 1)
        }
    }

    @Test func cancellingADownloadsProgressCancelsTheDownload() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("f-1", day: 1, normal: ScriptedBed.bigBundle, location: "slow/")])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let reached = AsyncStream<Void>.makeStream()
            let download = Task {
                try await library.download("f-1") { progress in
                    if progress.bytesReceived >= 200_000 { reached.continuation.yield() }
                }
            }
            for await _ in reached.stream { break }
            let progress = try #require(library.progress(of: "f-1"))
            #expect(progress.isCancellable)
            progress.cancel()
            await #expect(throws: LibraryError.cancelled(name: "f-1")) { try await download.value }
            #expect(await library.issue(named: "f-1")?.status == IssueStatus.none)
            let part = bed.libraryFolder.appendingPathComponent("Downloads/f-1.zip.part")
            #expect((FileStatus.size(of: part) ?? 0) >= 200_000, "the partial file is kept for a resume")
            #expect(library.progress(of: "f-1") == nil)
        }
    }

    /// `followShelf()`: a snapshot, then each change as one issue's new value; what a slow
    /// follower has not taken yet is merged, so it never holds more than one update.
    @Test func theShelfIsFollowedIssueByIssue() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let library = try bed.library()
            let (initial, updates) = await library.followShelf()
            #expect(initial.isEmpty)
            try await library.refresh(from: bed.catalogURL)
            try await library.download("a")
            // Not taken until now: everything since is one update, each issue at its last value.
            var iterator = updates.makeAsyncIterator()
            let merged = try #require(await iterator.next())
            #expect(Set(merged.changed.keys) == ["a", "b"])
            #expect(merged.changed["a"] == (await library.issue(named: "a")))
            #expect(merged.changed["a"]?.status == .available)
            #expect(merged.progress["a"]?.bytesReceived == merged.progress["a"]?.bytesExpected)
            try await library.setReadingPosition(ReadingPosition(article: 1, page: 0), of: "b")
            try await library.remove("a")
            let next = try #require(await iterator.next())
            #expect(next.changed.keys.sorted() == ["a"] && next.changed["a"]?.status == IssueStatus.none)
            await library.close()
            #expect(await iterator.next() == nil, "it ends when the library closes")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor @Test func aShelfModelFollowsTheLibraryWithoutCopyingTheShelfOnEveryByte() async throws {
        let bed = try ScriptedBed()
        defer { bed.close() }
        do {
            try bed.publish([.init("a", day: 1, normal: ScriptedBed.bigBundle), .init("b", day: 2)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let model = ShelfModel(library: library)
            let following = Task { await model.follow() }
            defer { following.cancel() }
            while model.items.count < 2 { try await Task.sleep(nanoseconds: 10_000_000) }
            #expect(model.items.map(\.name) == ["b", "a"])
            let item = try #require(model.item(named: "a"))

            let shelfChanged = Locked(false)
            let progressChanged = Locked(false)
            withObservationTracking {
                _ = model.items
            } onChange: {
                shelfChanged.exchange(true)
            }
            withObservationTracking {
                _ = item.progress
            } onChange: {
                progressChanged.exchange(true)
            }
            try await library.download("a")
            while item.issue.status != .available { try await Task.sleep(nanoseconds: 10_000_000) }
            #expect(progressChanged.current, "the item's progress moved")
            #expect(!shelfChanged.current, "the shelf itself did not change while bytes arrived")
            #expect(model.items.map(\.name) == ["b", "a"] && model.item(named: "a") === item, "the same item, updated")

            try bed.publish([.init("a", day: 1, normal: ScriptedBed.bigBundle), .init("b", day: 2), .init("c", day: 3)])
            try await library.refresh()
            while model.items.count < 3 { try await Task.sleep(nanoseconds: 10_000_000) }
            #expect(shelfChanged.current, "a new issue changes the shelf")
            #expect(model.items.map(\.name) == ["c", "b", "a"])
        }
    }
}
