import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

@Suite("Push and background fetch", .timeLimit(.minutes(1)))
struct NewContentTests {
    @Test func parsesRemoteNotificationPayloads() {
        let push = RemoteNotification(userInfo: ["aps": ["content-available": 1], "content-name": "f-2"])
        #expect(push == RemoteNotification(isContentAvailable: true, issueName: "f-2"))
        let byID = RemoteNotification(userInfo: ["aps": ["content-available": 1], "content-id": 42])
        #expect(byID == RemoteNotification(isContentAvailable: true, contentID: "42"))
        let alert = RemoteNotification(userInfo: ["aps": ["alert": "Hello"]])
        #expect(alert.isContentAvailable == false)
    }

    @Test func aSilentPushDownloadsTheNamedIssue() async throws {
        try await ScriptedBed.with { bed in
            var entries = try bed.publish([.init("f-1", day: 1), .init("f-2", day: 2), .init("f-3", day: 3)])
            entries[0].productID = "42"
            try bed.writeCatalog(entries)
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)

            #expect(await library.handleRemoteNotification(.init(isContentAvailable: false, issueName: "f-2")) == .noData)
            #expect(bed.requests("f-2/f-2.zip", atLeast: 0).isEmpty)

            #expect(await library.handleRemoteNotification(.init(isContentAvailable: true, issueName: "f-2")) == .newData)
            #expect(await library.issue(named: "f-2")?.status == .available)
            #expect(await library.handleRemoteNotification(.init(isContentAvailable: true, contentID: "42")) == .newData)
            #expect(await library.issue(named: "f-1")?.status == .available)
            #expect(await library.handleRemoteNotification(.init(isContentAvailable: true)) == .newData)
            #expect(await library.issue(named: "f-3")?.status == .available, "without a name, the newest")
            #expect(await library.handleRemoteNotification(.init(isContentAvailable: true)) == .noData)
            #expect(await library.handleRemoteNotification(.init(isContentAvailable: true, issueName: "f-9")) == .failed)
        }
    }

    @Test func aPushWhoseDownloadFailsReportsFailed() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("f-1", day: 1, location: "broken/")])
            let library = try bed.library { $0.maxAttempts = 1 }
            try await library.refresh(from: bed.catalogURL)
            #expect(await library.handleRemoteNotification(.init(isContentAvailable: true, issueName: "f-1")) == .failed)
        }
    }

    @Test func backgroundFetchReportsNewDataNoDataAndFailure() async throws {
        try await ScriptedBed.with { bed in
            let library = try bed.library()
            #expect(await library.performBackgroundFetch() == .failed, "no catalog URL yet")
            try bed.publish([.init("f-1", day: 1)])
            try await library.refresh(from: bed.catalogURL)
            #expect(await library.performBackgroundFetch() == .noData)

            try bed.publish([.init("f-1", day: 1), .init("f-2", day: 2)])
            #expect(await library.performBackgroundFetch() == .newData)
            let started = try #require(await library.issue(named: "f-2"))
            #expect(started.status != IssueStatus.none, "the new newest issue is being downloaded")
            #expect(try await library.download("f-2").status == .available)
            #expect(await library.issue(named: "f-1")?.status == IssueStatus.none, "older issues are left alone")

            bed.pause()
            #expect(await library.performBackgroundFetch() == .failed)
        }
    }
}
