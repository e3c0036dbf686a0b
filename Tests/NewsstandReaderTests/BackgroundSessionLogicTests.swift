import Foundation
import NewsstandCore
import Testing

@testable import NewsstandReader

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the background session engine decides without a network: the system's completion
/// handlers in every order, the meaning of a task's error, the sessions' identifiers, and what a
/// task's request says after a relaunch.
@Suite("Background session logic")
struct BackgroundSessionLogicTests {
    /// Counts the calls of the handlers a wake returns.
    final class Calls: Sendable {
        let count = Locked(0)
        var handler: @Sendable () -> Void { { self.count.withLock { $0 += 1 } } }
        func call(_ handlers: [BackgroundSessionWake.Handler]) {
            for handler in handlers { handler() }
        }
    }

    @Test func aHandlerGivenBeforeTheEventsIsCalledOnceWhenTheyAreDelivered() {
        var wake = BackgroundSessionWake()
        let calls = Calls()
        #expect(wake.received(calls.handler).isEmpty)
        wake.eventArrived()
        #expect(calls.count.current == 0)
        calls.call(wake.deliveredAllEvents())
        #expect(calls.count.current == 1)
        // A second delivery (a later wake's) calls nothing already called.
        calls.call(wake.deliveredAllEvents())
        #expect(calls.count.current == 1)
    }

    @Test func aHandlerGivenAfterTheEventsWereDeliveredIsCalledAtOnce() {
        var wake = BackgroundSessionWake()
        let calls = Calls()
        #expect(wake.deliveredAllEvents().isEmpty)
        calls.call(wake.received(calls.handler))
        #expect(calls.count.current == 1)
        // That delivery is used up: the next wake's handler waits for its own.
        let next = Calls()
        #expect(wake.received(next.handler).isEmpty)
        next.call(wake.deliveredAllEvents())
        #expect(next.count.current == 1)
        #expect(calls.count.current == 1)
    }

    @Test func anEventAfterADeliveryMakesTheNextHandlerWait() {
        var wake = BackgroundSessionWake()
        let calls = Calls()
        _ = wake.deliveredAllEvents()
        wake.eventArrived()
        #expect(wake.received(calls.handler).isEmpty)
        calls.call(wake.deliveredAllEvents())
        #expect(calls.count.current == 1)
    }

    @Test func everyHandlerGivenIsCalledExactlyOnce() {
        var wake = BackgroundSessionWake()
        let first = Calls()
        let second = Calls()
        _ = wake.received(first.handler)
        _ = wake.received(second.handler)
        let due = wake.deliveredAllEvents()
        #expect(due.count == 2)
        first.call(due)
        #expect(first.count.current + second.count.current == 2)
        #expect(wake.waiting.isEmpty)
    }

    @Test func aForceQuitIsTheSystemsCancelWithItsReasonAndTheResumeData() {
        let resume = Data("resume".utf8)
        let error = NSError(
            domain: NSURLErrorDomain, code: NSURLErrorCancelled,
            userInfo: [
                NSURLErrorBackgroundTaskCancelledReasonKey: NSNumber(value: NSURLErrorCancelledReasonUserForceQuitApplication),
                BackgroundSessionPlatform.resumeDataKey: resume,
            ])
        let read = BackgroundSessionError(error)
        #expect(read.failure == .cancelledBySystem(.userForceQuit))
        #expect(read.resumeData == resume)
        #expect(read.failure.isTransient)
        #expect(!read.failure.discardsPartialFile)
    }

    @Test func backgroundTransfersTurnedOffAreNotRetried() {
        let error = NSError(
            domain: NSURLErrorDomain, code: NSURLErrorCancelled,
            userInfo: [
                NSURLErrorBackgroundTaskCancelledReasonKey: NSNumber(value: NSURLErrorCancelledReasonBackgroundUpdatesDisabled)
            ])
        #expect(BackgroundSessionError(error).failure == .cancelledBySystem(.backgroundUpdatesDisabled))
        #expect(!BackgroundSessionError(error).failure.isTransient)
        #expect(SystemCancelReason(NSURLErrorCancelledReasonInsufficientSystemResources) == .insufficientSystemResources)
        #expect(SystemCancelReason(77) == .other(77))
    }

    @Test func otherErrorsReadAsTheTransportReadsThem() {
        let cancelled = NSError(domain: NSURLErrorDomain, code: NSURLErrorCancelled)
        #expect(BackgroundSessionError(cancelled).failure == .cancelled)
        #expect(BackgroundSessionError(cancelled).resumeData == nil)
        let lost = NSError(
            domain: NSURLErrorDomain, code: NSURLErrorNetworkConnectionLost,
            userInfo: [NSLocalizedDescriptionKey: "lost", BackgroundSessionPlatform.resumeDataKey: Data([1])])
        #expect(BackgroundSessionError(lost).failure == .network(code: NSURLErrorNetworkConnectionLost, reason: "lost"))
        #expect(BackgroundSessionError(lost).resumeData == Data([1]))
        #expect(BackgroundSessionError(NSError(domain: NSURLErrorDomain, code: NSURLErrorTimedOut)).failure == .stalled)
        // A reason that is not a number is no reason.
        let odd = NSError(
            domain: NSURLErrorDomain, code: NSURLErrorCancelled, userInfo: [NSURLErrorBackgroundTaskCancelledReasonKey: "0"])
        #expect(BackgroundSessionError(odd).failure == .cancelled)
    }

    @Test func onlyAFailureBeforeAnyResponseWithNothingNewIsTheSystemRefusingResumeData() throws {
        let task = URLSession(configuration: .ephemeral).downloadTask(with: URL(string: "https://x.test/a.zip")!)
        var live = BackgroundSessionEngine.LiveTask(task: task, lane: .user)
        let refused = BackgroundSessionError(failure: .network(code: -3003, reason: "cannot write"))
        #expect(!live.refused(refused, hadResponse: false))
        live.fromResumeData = true
        #expect(live.refused(refused, hadResponse: false))
        #expect(!live.refused(refused, hadResponse: true))
        #expect(!live.refused(BackgroundSessionError(failure: refused.failure, resumeData: Data([1])), hadResponse: false))
        #expect(!live.refused(BackgroundSessionError(failure: .cancelled), hadResponse: false))
        #expect(!live.refused(BackgroundSessionError(failure: .cancelledBySystem(.userForceQuit)), hadResponse: false))
    }

    @Test func identifiersAreStableNamesOfTheAppAndTheLibraryFolder() {
        let identity = BackgroundSessionIdentity(
            bundleIdentifier: "com.example.reader",
            libraryFolder: URL(fileURLWithPath: "/var/mobile/Containers/Data/X/Library/Issues/"))
        #expect(identity.base == "com.example.reader.newsstand.Issues")
        #expect(identity.identifier(of: .user) == "com.example.reader.newsstand.Issues")
        #expect(identity.identifier(of: .automatic) == "com.example.reader.newsstand.Issues.automatic")
        // The container's path changes when iOS updates the app; the identifier does not.
        let moved = BackgroundSessionIdentity(
            bundleIdentifier: "com.example.reader",
            libraryFolder: URL(fileURLWithPath: "/var/mobile/Containers/Data/Y/Library/Issues"))
        #expect(moved == identity)
        for lane in BackgroundSessionLane.allCases { #expect(identity.lane(of: identity.identifier(of: lane)) == lane) }
        #expect(identity.lane(of: "com.example.reader.widget.newsstand.Issues") == nil)
        #expect(identity.lane(of: "") == nil)
    }

    @Test func identifiersKeepOnlyPlainCharacters() {
        let odd = BackgroundSessionIdentity(bundleIdentifier: nil, libraryFolder: URL(fileURLWithPath: "/tmp/My Issues ü/"))
        #expect(odd.base == "newsstand.newsstand.My-Issues--")
        #expect(
            BackgroundSessionIdentity(bundleIdentifier: "", libraryFolder: URL(fileURLWithPath: "/")).base.hasPrefix(
                "newsstand.newsstand."))
        #expect(BackgroundSessionIdentity(base: "").base == "newsstand")
        #expect(BackgroundSessionLane(.user) == .user)
        #expect(BackgroundSessionLane(.automatic) == .automatic)
    }

    @Test func aContinuationAsksForTheRestWithItsValidator() {
        var job = TransferJob(
            id: TransferID(name: "a", generation: 2), url: URL(string: "https://x.test/a.zip")!, expectedSize: 10, intent: .user)
        job.allowsCellularAccess = false
        let request = BackgroundSessionRequest.make(for: job, from: .partial(offset: 4, validator: "\"abc\""))
        #expect(request.value(forHTTPHeaderField: "Range") == "bytes=4-")
        #expect(request.value(forHTTPHeaderField: "If-Range") == "\"abc\"")
        #expect(request.value(forHTTPHeaderField: "Accept-Encoding") == "identity")
        #expect(!request.allowsCellularAccess)
        #expect(BackgroundSessionRequest.offset(of: request) == 4)
        let whole = BackgroundSessionRequest.make(for: job, from: .fresh)
        #expect(whole.value(forHTTPHeaderField: "Range") == nil)
        #expect(whole.value(forHTTPHeaderField: "If-Range") == nil)
        #expect(BackgroundSessionRequest.offset(of: whole) == 0)
    }

    @Test func aRequestThatIsNoContinuationHasOffsetZero() {
        for range in ["bytes=-5", "bytes=5-9", "bytes=x-", "items=5-", "bytes=0-", "bytes=--5-", ""] {
            var request = URLRequest(url: URL(string: "https://x.test/a.zip")!)
            request.setValue(range, forHTTPHeaderField: "Range")
            #expect(BackgroundSessionRequest.offset(of: request) == 0, "\(range)")
        }
        #expect(BackgroundSessionRequest.offset(of: nil) == 0)
    }
}
