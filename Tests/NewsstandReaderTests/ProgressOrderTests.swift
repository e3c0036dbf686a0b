import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Progress reaches the app in the order the bytes arrived, on each real transport (libcurl and
/// URLSession) against nginx.
@Suite("Progress in order on each transport", .timeLimit(.minutes(1)), .tags(.needsServer))
struct ProgressOrderTests {
    @Test(arguments: Transport.allCases)
    func progressReachesTheAppInOrderBeforeTheIssueIsAvailable(transport: Transport) async throws {
        try await Testbed.with { bed in
            let entries = try bed.publish([.init("f-1", day: 1, normal: DownloadTests.bigBundle)])
            let size = Int64(try #require(entries[0].contentSize))
            let library = try bed.library(transport: transport)
            try await library.refresh(from: bed.catalogURL)
            let events = await library.events()
            let handler = ProgressLog()
            // A slow app: each report takes a while, so reports pile up behind one another.
            _ = try await library.download("f-1") { progress in
                handler.append(progress)
                usleep(20_000)
            }
            var progress: [Int64] = []
            for await event in events {
                if case .progress("f-1", let value) = event { progress.append(value.bytesReceived) }
                if case .statusChanged("f-1", .available) = event { break }
            }
            #expect(progress.count > 10, "\(progress)")
            #expect(progress == progress.sorted(), "progress events in the order bytes arrived: \(progress)")
            #expect(progress.last == size, "the last report is the whole file, and it comes before the issue is available")
            #expect(handler.all.map(\.bytesReceived) == progress, "the handler hears the same reports in the same order")
        }
    }
}
