import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Collects progress values reported from any thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [DownloadProgress] = []
    func append(_ value: DownloadProgress) { lock.withLock { values.append(value) } }
    var all: [DownloadProgress] { lock.withLock { values } }
}

/// The download suite, run on both transports: libcurl's (the Linux default) and URLSession's
/// (the Apple default), so the Apple path is exercised on every run.
@Suite("Downloads", .timeLimit(.minutes(1)), .tags(.needsServer))
struct DownloadTests {
    /// A bundle big enough to be cut mid-way at 100 KB/s (15 s in all, far beyond any delay a busy
    /// machine adds before the cancel): 1.5 MB of incompressible image.
    static let bigBundle: [ZipFixture.Entry] = Testbed.IssueSpec.pages(scale: "", imageBytes: 1_500_000, seed: 5)

    @Test(arguments: Transport.allCases) func fullDownloadIsVerifiedAndUnpacked(transport: Transport) async throws {
        try await Testbed.with { bed in
            let entries = try bed.publish([.init("f-1", day: 1, normal: Self.bigBundle)])
            let library = try bed.library(transport: transport)
            try await library.refresh(from: bed.catalogURL)
            let progress = ProgressLog()
            let issue = try await library.download("f-1") { progress.append($0) }
            #expect(issue.status == .available)
            #expect(issue.contentURL == bed.libraryFolder.appendingPathComponent("Issues/f-1", isDirectory: true))
            let image = try Data(contentsOf: issue.contentURL.appendingPathComponent("1-0.png"))
            #expect(image == (try ZipFixture.randomBytes(count: 1_500_000, seed: 5)))
            #expect(FileManager.default.fileExists(atPath: issue.contentURL.appendingPathComponent("pages.plist").path))
            let size = try #require(entries[0].contentSize)
            #expect(bed.requests("f-1/f-1.zip") == [LoggedRequest("200 \(size) GET /f-1/f-1.zip \"-\"")!])
            let downloads = try FileManager.default.contentsOfDirectory(
                atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
            #expect(downloads.isEmpty, "the .part file is gone once unpacked")
            let values = progress.all
            #expect(!values.isEmpty)
            #expect(values.map(\.bytesReceived) == values.map(\.bytesReceived).sorted())
            #expect(values.last?.bytesExpected == Int64(size))

            await library.close()
            let reopened = try bed.library(transport: transport)
            #expect(await reopened.issue(named: "f-1")?.status == .available)
        }
    }

    /// Starts a download from the slow location and cancels it once `threshold` bytes are on disk.
    static func cancelMidway(_ library: IssueLibrary, _ name: String, threshold: Int64 = 200_000, suspend: Bool = false)
        async throws
    {
        let reached = AsyncStream<Void>.makeStream()
        let task = Task {
            try await library.download(name) { progress in
                if progress.bytesReceived >= threshold { reached.continuation.yield() }
            }
        }
        for await _ in reached.stream { break }
        if suspend {
            await library.suspendDownloads()
        } else {
            await library.cancelDownload(name)
        }
        let result = await task.result
        #expect(throws: LibraryError.cancelled(name: name)) { try result.get() }
    }

    @Test(arguments: Transport.allCases) func resumeAfterCancelTransfersOnlyTheRest(transport: Transport) async throws {
        try await Testbed.with { bed in
            let entries = try bed.publish([.init("f-1", day: 1, normal: Self.bigBundle, location: "slow/")])
            let size = try #require(entries[0].contentSize)
            let library = try bed.library(transport: transport)
            try await library.refresh(from: bed.catalogURL)
            try await Self.cancelMidway(library, "f-1")
            #expect(await library.issue(named: "f-1")?.status == IssueStatus.none)
            let part = bed.libraryFolder.appendingPathComponent("Downloads/f-1.zip.part")
            let kept = try #require(try FileManager.default.attributesOfItem(atPath: part.path)[.size] as? Int)
            #expect(kept >= 200_000 && kept < size)

            let issue = try await library.download("f-1")
            #expect(issue.status == .available)
            let requests = bed.requests("slow/f-1/f-1.zip", atLeast: 2)
            try #require(requests.count == 2)
            // By kind, not by position: nginx logs a request when it ends, and the cut one can
            // end after the resume (at 100 KB/s it notices the client gone at its next write).
            #expect(requests.filter { $0.range == nil }.count == 1)
            let resumed = try #require(requests.first { $0.range != nil })
            #expect(resumed.status == 206)
            #expect(resumed.range == "bytes=\(kept)-")
            #expect(resumed.bytesSent == size - kept)
            let image = try Data(contentsOf: issue.contentURL.appendingPathComponent("1-0.png"))
            #expect(image == (try ZipFixture.randomBytes(count: 1_500_000, seed: 5)))
        }
    }

    @Test(arguments: Transport.allCases) func aFileChangedOnTheServerRestartsFromZero(transport: Transport) async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("f-1", day: 1, normal: Self.bigBundle, location: "slow/")])
            let library = try bed.library(transport: transport)
            try await library.refresh(from: bed.catalogURL)
            try await Self.cancelMidway(library, "f-1")
            let changed = Testbed.IssueSpec.pages(scale: "", imageBytes: 1_400_000, seed: 6)
            let entries = try bed.publish([.init("f-1", day: 1, normal: changed, location: "slow/")])
            try await library.refresh()

            let issue = try await library.download("f-1")
            let requests = bed.requests("slow/f-1/f-1.zip", atLeast: 2)
            try #require(requests.count == 2)
            let resumed = try #require(requests.first { $0.range != nil }, "the resume was attempted with If-Range")
            #expect(resumed.status == 200)
            #expect(resumed.bytesSent == entries[0].contentSize)
            let image = try Data(contentsOf: issue.contentURL.appendingPathComponent("1-0.png"))
            #expect(image == (try ZipFixture.randomBytes(count: 1_400_000, seed: 6)))
        }
    }

    @Test(arguments: Transport.allCases) func aServerIgnoringRangeRestartsCleanly(transport: Transport) async throws {
        try await Testbed.with { bed in
            let entries = try bed.publish([.init("f-1", day: 1, normal: Self.bigBundle, location: "norange/")])
            let library = try bed.library(transport: transport)
            try await library.refresh(from: bed.catalogURL)
            try await Self.cancelMidway(library, "f-1")
            let issue = try await library.download("f-1")
            #expect(issue.status == .available)
            let requests = bed.requests("norange/f-1/f-1.zip", atLeast: 2)
            try #require(requests.count == 2)
            let resumed = try #require(requests.first { $0.range != nil })
            #expect(resumed.status == 200)
            #expect(resumed.bytesSent == entries[0].contentSize)
            let image = try Data(contentsOf: issue.contentURL.appendingPathComponent("1-0.png"))
            #expect(image == (try ZipFixture.randomBytes(count: 1_500_000, seed: 5)))
        }
    }

    @Test(arguments: Transport.allCases) func a404FailsAtOnceWithoutRetries(transport: Transport) async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("f-1", day: 1)])
            try FileManager.default.removeItem(at: bed.nginx.root.appendingPathComponent("f-1/f-1.zip"))
            let library = try bed.library(transport: transport)
            try await library.refresh(from: bed.catalogURL)
            let url = bed.nginx.baseURL.appendingPathComponent("f-1/f-1.zip").absoluteString
            await #expect(throws: LibraryError.downloadHTTPStatus(name: "f-1", url: url, status: 404)) {
                try await library.download("f-1")
            }
            #expect(bed.requests("f-1/f-1.zip").map(\.status) == [404])
            #expect(await library.issue(named: "f-1")?.status == IssueStatus.none)
        }
    }

    @Test(arguments: Transport.allCases) func serverErrorsAreRetriedThenReported(transport: Transport) async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("f-1", day: 1, location: "broken/")])
            let library = try bed.library(transport: transport) { $0.maxAttempts = 3 }
            try await library.refresh(from: bed.catalogURL)
            let url = bed.nginx.baseURL.appendingPathComponent("broken/f-1/f-1.zip").absoluteString
            await #expect(throws: LibraryError.downloadHTTPStatus(name: "f-1", url: url, status: 503)) {
                try await library.download("f-1")
            }
            #expect(bed.requests("broken/f-1/f-1.zip", atLeast: 3).map(\.status) == [503, 503, 503])
        }
    }

    @Test(arguments: Transport.allCases) func aChecksumMismatchDeletesTheDownload(transport: Transport) async throws {
        try await Testbed.with { bed in
            var entries = try bed.publish([.init("f-1", day: 1)])
            entries[0].contentSHA256 = String(repeating: "0", count: 64)
            try bed.writeCatalog(entries)
            let library = try bed.library(transport: transport)
            try await library.refresh(from: bed.catalogURL)
            let error = await #expect(throws: LibraryError.self) { try await library.download("f-1") }
            guard case .verificationFailed(let name, let path, _)? = error else {
                Issue.record("expected a verification failure, got \(String(describing: error))")
                return
            }
            #expect(name == "f-1")
            #expect(!FileManager.default.fileExists(atPath: path))
            let issue = try #require(await library.issue(named: "f-1"))
            #expect(issue.status == .none)
            #expect(!FileManager.default.fileExists(atPath: issue.contentURL.path))
        }
    }

    @Test(arguments: Transport.allCases) func aDownloadThatCannotFitIsRefused(transport: Transport) async throws {
        try await Testbed.with { bed in
            let entries = try bed.publish([.init("f-1", day: 1)])
            let library = try bed.library(transport: transport) { $0.availableCapacity = { _, _ in 1000 } }
            try await library.refresh(from: bed.catalogURL)
            let size = Int64(try #require(entries[0].contentSize))
            await #expect(
                throws: LibraryError.insufficientSpace(
                    name: "f-1", path: bed.libraryFolder.path, required: 2 * size, available: 1000)
            ) {
                try await library.download("f-1")
            }
            #expect(bed.requests("f-1/f-1.zip", atLeast: 0).isEmpty)
            #expect(await library.issue(named: "f-1")?.status == IssueStatus.none)
        }
    }

    @Test(arguments: Transport.allCases) func hostileBundlesNeverBecomeAvailable(transport: Transport) async throws {
        try await Testbed.with { bed in
            let hostile: [(String, [ZipFixture.Entry])] = [
                ("slip", [.text("issue.plist", "x"), .text("../../../escaped", "x")]),
                ("link", [.symlink("pages.plist", target: "/etc/passwd")]),
                ("bomb", [.zeros("pages.plist", count: 50_000_000)]),
                ("cut", Self.bigBundle),
            ]
            try bed.publish(hostile.enumerated().map { .init($1.0, day: $0, normal: $1.1) })
            var entries = try Catalog.decode(Data(contentsOf: bed.nginx.root.appendingPathComponent("issues.plist"))).entries
            let cut = bed.nginx.root.appendingPathComponent("cut/cut.zip")
            try ZipFixture.truncate(cut, to: 0.5)
            let index = try #require(entries.firstIndex { $0.name == "cut" })
            entries[index].contentSize = try Data(contentsOf: cut).count
            entries[index].contentSHA256 = try SHA256.hex(ofFileAt: cut)
            try bed.writeCatalog(entries)

            let library = try bed.library(transport: transport)
            try await library.refresh(from: bed.catalogURL)
            for (name, _) in hostile {
                let error = await #expect(throws: LibraryError.self) { try await library.download(name) }
                guard case .unpackFailed(let failed, let reason)? = error else {
                    Issue.record("\(name): expected an unpack failure, got \(String(describing: error))")
                    continue
                }
                #expect(failed == name)
                switch (name, reason) {
                case ("slip", .unsafePath), ("link", .link), ("bomb", .suspiciousCompressionRatio), ("cut", .corrupt): break
                default: Issue.record("\(name): unexpected reason \(reason)")
                }
                #expect(await library.issue(named: name)?.status == IssueStatus.none)
            }
            let issues = try FileManager.default.contentsOfDirectory(
                atPath: bed.libraryFolder.appendingPathComponent("Issues").path)
            #expect(issues.isEmpty, "no content folder and no temporary leftovers")
            let escaped = bed.libraryFolder.deletingLastPathComponent().appendingPathComponent("escaped")
            #expect(!FileManager.default.fileExists(atPath: escaped.path))
        }
    }

    @Test(arguments: Transport.allCases) func anUnknownIssueIsATypedError(transport: Transport) async throws {
        try await Testbed.with { bed in
            let library = try bed.library(transport: transport)
            await #expect(throws: LibraryError.unknownIssue(name: "nope")) { try await library.download("nope") }
        }
    }
}
