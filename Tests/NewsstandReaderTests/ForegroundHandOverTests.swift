import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// A foreground download handed to the background engine when the app's time runs out
/// (`handDownloadsToBackground()`, #22 item 6), through the whole library against a real nginx:
/// the background session continues the in-process download's part file with `Range`, and the
/// issue is installed from it.
@Suite("Foreground downloads handed to the background", .timeLimit(.minutes(2)), .tags(.needsServer))
struct ForegroundHandOverTests {
    /// Waits up to `seconds` for `name` to be installed.
    static func installed(_ name: String, in library: IssueLibrary, within seconds: TimeInterval = 60) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if await library.issue(named: name)?.status == .available, await library.backgroundTransfers.isEmpty { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return false
    }

    /// A library closed while its background download runs and opened again in the same
    /// process gets the sessions it had (one session per identifier in a process): the transfer
    /// goes on and is installed once, never fetched again (#34).
    @Test func aLibraryOpenedAgainInTheProcessKeepsItsSessionsAndTheirTransfer() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("f-1", day: 1, normal: DownloadTests.bigBundle, location: "slow/")])
            let first = try bed.library()
            try await first.refresh(from: bed.catalogURL)
            await first.useBackgroundEngine(.urlSession(bundleIdentifier: "com.example.reopen"))
            try await first.startBackgroundDownload("f-1")
            await first.close()

            let again = try bed.library()
            await again.useBackgroundEngine(.urlSession(bundleIdentifier: "com.example.reopen"))
            #expect(try await Self.installed("f-1", in: again))
            await again.waitForInstalls()
            let requests = bed.requests("slow/f-1/f-1.zip", atLeast: 1)
            #expect(requests.count == 1 && requests.first?.range == nil, "one whole fetch, not another: \(requests)")
            #expect(try await LibraryInvariants.violations(of: again, in: bed, allowsDownloading: false) == [])
            await again.close()
        }
    }

    @Test func aForegroundDownloadGoesOnOnTheBackgroundSessionFromItsPartFile() async throws {
        try await Testbed.with { bed in
            let entries = try bed.publish([.init("f-1", day: 1, normal: DownloadTests.bigBundle, location: "slow/")])
            let size = try #require(entries[0].contentSize)
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            await library.useBackgroundEngine(.urlSession(bundleIdentifier: "com.example.handover"))
            #expect(try await library.handDownloadsToBackground() == [], "nothing runs in process yet")

            let reached = AsyncStream<Void>.makeStream()
            let foreground = Task {
                try await library.download("f-1") { if $0.bytesReceived >= 200_000 { reached.continuation.yield() } }
            }
            for await _ in reached.stream { break }
            #expect(try await library.handDownloadsToBackground() == ["f-1"])
            // The caller waiting in process is told its download stopped; the issue goes on.
            let stopped = await foreground.result
            #expect(throws: LibraryError.cancelled(name: "f-1")) { try stopped.get() }
            #expect(await library.issue(named: "f-1")?.status != IssueStatus.none, "still shown downloading")
            #expect(await library.backgroundTransfers.map(\.intent).allSatisfy { $0 == .user })

            #expect(try await Self.installed("f-1", in: library))
            let requests = bed.requests("slow/f-1/f-1.zip", atLeast: 2)
            try #require(requests.count == 2, "\(requests)")
            #expect(requests.filter { $0.range == nil }.map(\.status) == [200])
            let resumed = try #require(requests.first { $0.range != nil })
            #expect(resumed.status == 206)
            let offset = try #require(resumed.range.flatMap { Int($0.dropFirst("bytes=".count).dropLast()) })
            #expect(offset >= 200_000)
            #expect(resumed.bytesSent == size - offset, "only the rest was fetched")
            // The install's last steps (deleting the received file) come after its state is
            // saved, and the actor is free while it saves: the issue shows installed a moment
            // before the install has ended.
            await library.waitForInstalls()
            let leftovers = try FileManager.default.contentsOfDirectory(
                atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
            #expect(leftovers.isEmpty, "no part, metadata or received file is left: \(leftovers)")
            #expect(try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false) == [])
        }
    }

    @Test func withoutABackgroundEngineNothingIsHandedOver() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("f-1", day: 1)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            await #expect(throws: LibraryError.backgroundEngineMissing(path: bed.libraryFolder.path)) {
                try await library.handDownloadsToBackground()
            }
        }
    }
}
