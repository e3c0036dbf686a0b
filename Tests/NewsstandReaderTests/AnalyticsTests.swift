import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// What the app's analytics sink is told, and nothing more (seed 003: a notification received
/// and one opened are different events, in different places).
@Suite("Analytics events", .timeLimit(.minutes(1)))
struct AnalyticsTests {
    final class Recorder: AnalyticsSink {
        let events = Locked<[AnalyticsEvent]>([])
        func record(_ event: AnalyticsEvent) { events.withLock { $0.append(event) } }
    }

    @Test func theLibraryReportsReceivedOpenedDownloadedAndRemovedIssues() async throws {
        try await ScriptedBed.with { bed in
            var entries = try bed.publish([.init("e-1", day: 1), .init("e-2", day: 2)])
            entries[0].productID = "com.example.e1"
            try bed.writeCatalog(entries)
            let recorder = Recorder()
            let library = try bed.library { $0.analytics = recorder }
            try await library.refresh(from: bed.catalogURL)
            #expect(recorder.events.current == [], "a refresh is no event")

            let push = RemoteNotification(isContentAvailable: true, contentID: "com.example.e1")
            #expect(await library.issue(for: push)?.name == "e-1", "matched by product identifier")
            #expect(await library.handleRemoteNotification(push) == .newData)
            #expect(await library.issue(named: "e-1")?.status == .available)
            _ = try await library.cursor(for: "e-1")
            await library.recordNotificationOpened(push)
            try await library.remove("e-1")
            #expect(
                recorder.events.current == [
                    .notificationReceived(issue: "e-1"), .issueDownloaded(name: "e-1", automatically: false),
                    .issueOpened(name: "e-1"), .notificationOpened(issue: "e-1"), .issueRemoved(name: "e-1", byPolicy: false),
                ])
            let unknown = RemoteNotification(isContentAvailable: true, issueName: "e-9")
            #expect(await library.handleRemoteNotification(unknown) == .failed)
            #expect(recorder.events.current.last == .notificationReceived(issue: nil))
        }
    }
}
