import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Every wait of the library runs on its configured clock: a test drives the backoff of a
/// download retried after 503s without waiting for it.
@Suite("the library's clock", .timeLimit(.minutes(1)))
struct LibraryClockTests {
    /// A clock whose time moves only when the library sleeps on it; it records every sleep.
    final class DrivenClock: Sendable {
        private let state = Locked((now: 1_000_000.0, sleeps: [Double]()))

        var sleeps: [Double] { state.current.sleeps }

        var clock: LibraryClock {
            LibraryClock(
                now: { [state] in state.current.now },
                sleep: { [state] seconds in
                    state.withLock {
                        $0.now += seconds
                        $0.sleeps.append(seconds)
                    }
                    await Task.yield()
                })
        }
    }

    @Test func aRetriedDownloadBacksOffOnTheLibrarysClock() async throws {
        var world = try ScriptedReaderTests.World()
        world.publish("a", day: 1)
        let driven = DrivenClock()
        var configuration = LibraryConfiguration()
        configuration.transport = world.transport
        // An hour, then two: a test on the wall clock could not wait for these.
        configuration.retryDelay = 3600
        configuration.maxAttempts = 3
        configuration.clock = driven.clock
        let library = try IssueLibrary(folder: world.folder, configuration: configuration)
        try await library.refresh(from: world.catalogURL)
        let bundle = try #require(world.entries.first.flatMap { URL(string: $0.content) }?.path.dropFirst())
        world.transport.inject(.status(503), at: String(bundle))
        world.transport.inject(.status(503), at: String(bundle))
        let issue = try await library.download("a")
        #expect(issue.status == .available)
        #expect(driven.sleeps.filter { $0 >= 3600 } == [3600, 7200], "\(driven.sleeps)")
        #expect(world.transport.requests(String(bundle)).map(\.status) == [503, 503, 200])
        await library.close()
    }
}
