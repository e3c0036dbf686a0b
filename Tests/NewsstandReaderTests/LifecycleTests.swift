import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

@Suite("Library lifecycle", .timeLimit(.minutes(1)), .tags(.needsServer))
struct LifecycleTests {
    @Test func reopeningAfterAnInterruptedDownloadResumesIt() async throws {
        try await Testbed.with { bed in
            let entries = try bed.publish([.init("f-1", day: 1, normal: DownloadTests.bigBundle, location: "slow/")])
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
            // By kind, not by position: nginx logs a request when it ends, and the cut one (at
            // 100 KB/s, it notices the client gone at its next write) can end after the resume.
            #expect(requests.filter { $0.range == nil }.map(\.status) == [200])
            let resumed = try #require(requests.first { $0.range != nil })
            #expect(resumed.status == 206)
            #expect(resumed.range == "bytes=\(progress.bytesReceived)-")
            #expect(resumed.bytesSent == size - Int(progress.bytesReceived))
        }
    }

    @Test func reopeningAfterAnInterruptedUnpackCleansUp() async throws {
        try await Testbed.with { bed in
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
            let gone = try TestChild.start("/bin/true", [])
            gone.wait()
            let cutCover = covers.appendingPathComponent(".a.png.\(gone.pid).1f.tmp")
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
        try await Testbed.with { bed in
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
        try await Testbed.with { bed in
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
        try await Testbed.with { bed in
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
        try await Testbed.with { bed in
            let bundle = Testbed.IssueSpec.pages(scale: "", imageBytes: 250_000, seed: 3)
            try bed.publish([
                .init("a", day: 1, normal: bundle, location: "slow/"), .init("b", day: 2, normal: bundle, location: "slow/"),
            ])
            let library = try bed.library { $0.maxConcurrentDownloads = 1 }
            try await library.refresh(from: bed.catalogURL)
            let events = await library.events()
            async let first = library.download("a")
            async let second = library.download("b")
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

    @Test func aStalledServerTimesOut() async throws {
        try await Testbed.with { bed in
            let server = try StalledServer()
            defer { server.stop() }
            let base = "http://127.0.0.1:\(server.port)/"
            var entry = CatalogEntry(
                name: "s", title: "S", date: Date(), cover: bed.nginx.baseURL.absoluteString + "none.png", content: base + "s.zip"
            )
            entry.contentSize = 100
            try bed.writeCatalog([entry])
            // The catalog comes with the default limits (under a 1 s window a small catalog must
            // arrive whole within a second); the library reopened keeps what it fetched.
            let opener = try bed.library()
            try await opener.refresh(from: bed.catalogURL)
            await opener.close()
            let library = try bed.library {
                $0.stallTimeout = 1
                $0.maxAttempts = 2
            }
            await #expect(throws: LibraryError.downloadStalled(name: "s", url: base + "s.zip")) {
                try await library.download("s")
            }
            #expect(server.connectionCount() == 2, "one retry after the first stall")
        }
    }
}

/// A TCP server that accepts connections and never answers, in a python3 child process.
final class StalledServer: @unchecked Sendable {
    private let server: PythonServer
    var port: Int { server.port }

    init() throws {
        server = try PythonServer(
            script: PythonServer.script("stalled_server.py"))
    }

    /// Connections accepted so far (read after the client is done).
    func connectionCount() -> Int {
        server.stopAndReadOutput().filter { $0 == "accepted" }.count
    }

    func stop() { server.stop() }
}
