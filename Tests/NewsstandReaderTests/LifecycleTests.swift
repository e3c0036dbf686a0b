import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// The library's lifecycle on a scripted transport (the fast tier): resume after reopening,
/// clean-up of an interrupted unpack, the storage policy, removal and the download limit.
@Suite("Library lifecycle", .timeLimit(.minutes(1)))
struct LifecycleTests {
    @Test func reopeningAfterAnInterruptedDownloadResumesIt() async throws {
        try await ScriptedBed.with { bed in
            let entries = try bed.publish([.init("f-1", day: 1, normal: ScriptedBed.bigBundle, location: "slow/")])
            let size = try #require(entries[0].contentSize)
            let first = try bed.library()
            try await first.refresh(from: bed.catalogURL)
            try await DownloadTests.cancelMidway(first, "f-1", suspend: true)
            await first.close()

            let library = try bed.library()
            guard case .downloading(let progress) = await library.issue(named: "f-1")?.status else {
                Issue.record("the interrupted download is still pending after reopening")
                return
            }
            #expect(progress.bytesReceived >= 200_000)
            #expect(await library.pendingDownloads == ["f-1"])
            #expect(await library.resumePendingDownloads() == ["f-1"])
            let issue = try await library.download("f-1")
            #expect(issue.status == .available)
            let requests = bed.requests("slow/f-1/f-1.zip", atLeast: 2)
            try #require(requests.count == 2)
            #expect(requests.filter { $0.range == nil }.map(\.status) == [200])
            let resumed = try #require(requests.first { $0.range != nil })
            #expect(resumed.status == 206)
            #expect(resumed.range == "bytes=\(progress.bytesReceived)-")
            #expect(resumed.bytesSent == size - Int(progress.bytesReceived))
        }
    }

    @Test func reopeningAfterAnInterruptedUnpackCleansUp() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            try await library.download("a")
            let b = try await library.download("b")
            // A crash mid-unpack leaves a temporary folder beside the content folders; a crash
            // (or a user) can also remove a content folder behind the library's back.
            let issues = bed.libraryFolder.appendingPathComponent("Issues")
            let leftover = issues.appendingPathComponent(".tmp-a-interrupted")
            try FileManager.default.createDirectory(at: leftover, withIntermediateDirectories: true)
            try Data("half".utf8).write(to: leftover.appendingPathComponent("1-0.png"))
            try FileManager.default.removeItem(at: b.contentURL)
            // A process killed while fetching a cover leaves its temporary file (the next
            // refresh removes it); a running process's (this one's) is its own.
            let covers = bed.libraryFolder.appendingPathComponent("Covers")
            // Int32.max is above any pid the kernel hands out: that process is gone.
            let cutCover = covers.appendingPathComponent(".a.png.\(Int32.max).1f.tmp")
            let ownCover = covers.appendingPathComponent(".b.png.\(getpid()).2e.tmp")
            try FileManager.default.createDirectory(at: covers, withIntermediateDirectories: true)
            for file in [cutCover, ownCover] { try Data("half".utf8).write(to: file) }

            await library.close()
            let reopened = try bed.library()
            #expect(!FileManager.default.fileExists(atPath: leftover.path))
            #expect(await reopened.issue(named: "a")?.status == .available)
            #expect(await reopened.issue(named: "b")?.status == IssueStatus.none, "missing content is not shown as available")
            #expect(try await reopened.download("b").status == .available)
            try await reopened.refresh(from: bed.catalogURL)
            #expect(!FileManager.default.fileExists(atPath: cutCover.path))
            #expect(FileManager.default.fileExists(atPath: ownCover.path))
        }
    }

    @Test func storagePolicyRemovesTheOldestButNeverTheOneBeingRead() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2), .init("c", day: 3), .init("d", day: 4)])
            let library = try bed.library { $0.maxDownloadedIssues = 2 }
            try await library.refresh(from: bed.catalogURL)
            try await library.download("a")
            try await library.setCurrentlyReadingIssue("a")
            try await library.download("b")
            try await library.download("c")
            #expect(await library.issue(named: "b")?.status == IssueStatus.none)
            try await library.download("d")
            let available = await library.issues.filter { $0.status == .available }.map(\.name)
            #expect(available == ["d", "a"])
            for name in ["b", "c"] {
                #expect(!FileManager.default.fileExists(atPath: bed.libraryFolder.appendingPathComponent("Issues/\(name)").path))
            }
            await library.close()
            let reopened = try bed.library()
            #expect(await reopened.currentlyReadingIssue?.name == "a")
        }
    }

    /// Downloaded in an order that is not their dates' (newest, oldest, middle), so "the
    /// oldest" and "the one downloaded first" or "the newest unprotected" name different issues.
    @Test func storagePolicyGoesByIssueDateNotDownloadOrder() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("c", day: 3), .init("d", day: 4)])
            let library = try bed.library { $0.maxDownloadedIssues = 2 }
            try await library.refresh(from: bed.catalogURL)
            try await library.download("d")
            try await library.download("a")
            try await library.download("c")
            let available = await library.issues.filter { $0.status == .available }.map(\.name)
            #expect(available == ["d", "c"], "the oldest issue, a, is the one removed")
        }
    }

    @Test func removeDeletesContentAndForgetsIssuesThatLeftTheCatalog() async throws {
        try await ScriptedBed.with { bed in
            let entries = try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let a = try await library.download("a")
            try await library.download("b")
            try await library.remove("a")
            #expect(await library.issue(named: "a")?.status == IssueStatus.none)
            #expect(!FileManager.default.fileExists(atPath: a.contentURL.path))

            try bed.writeCatalog(entries.filter { $0.name == "a" })
            try await library.refresh()
            #expect(await library.issue(named: "b")?.isInCatalog == false)
            try await library.remove("b")
            #expect(await library.issues.map(\.name) == ["a"])
            await #expect(throws: LibraryError.unknownIssue(name: "b")) { try await library.remove("b") }
        }
    }

    @Test func atMostTheConfiguredNumberOfDownloadsRunAtOnce() async throws {
        try await ScriptedBed.with { bed in
            let bundle = ScriptedBed.bigBundle
            try bed.publish([
                .init("a", day: 1, normal: bundle, location: "slow/"), .init("b", day: 2, normal: bundle, location: "slow/"),
            ])
            let library = try bed.library { $0.maxConcurrentDownloads = 1 }
            try await library.refresh(from: bed.catalogURL)
            let events = await library.events()
            async let first = library.download("a")
            async let second = library.download("b")
            // The first download is held at slow/'s pause: the other has not even asked yet.
            await bed.slow.reached()
            let asked = ["a", "b"].filter { !bed.requests("slow/\($0)/\($0).zip").isEmpty }
            #expect(asked.count == 1, "one download runs while the first is held: \(asked)")
            bed.releaseSlow()
            _ = try await (first, second)
            var order: [String] = []
            for await event in events {
                switch event {
                case .progress(let name, _) where order.last != name: order.append(name)
                case .statusChanged(let name, .available): order.append("\(name) done")
                default: break
                }
                if order.filter({ $0.hasSuffix("done") }).count == 2 { break }
            }
            let firstDone = try #require(order.firstIndex { $0.hasSuffix("done") })
            let finished = String(order[firstDone].prefix(1))
            #expect(order[..<firstDone].allSatisfy { $0 == finished }, "only one download ran until the first finished: \(order)")
        }
    }
}
