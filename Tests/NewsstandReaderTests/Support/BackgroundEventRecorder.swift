import Foundation
import NewsstandCore
import NewsstandTestSupport

@testable import NewsstandReader

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transfer event sink as the library's: it takes a finished file of status 200 for an issue
/// it knows into `downloads` inside the callback (the file may vanish when the callback
/// returns), refuses anything else, and records every event in order, with what it saw of the
/// file while the callback ran.
final class BackgroundEventRecorder: TransferEventSink {
    /// One event as the sink saw it.
    enum Event: Equatable {
        case progressed(TransferID, DownloadProgress)
        /// `bytes`: the file's content during the callback (nil: there was no file);
        /// `taken`: where the sink moved it, nil when it refused it.
        case finished(TransferID, status: Int?, file: URL, bytes: Data?, taken: URL?)
        case failed(TransferID, TransferFailure, resumeData: Data?)
        case deliveredAllEvents
    }

    let downloads: URL
    /// The issues the library knows; a transfer of any other is refused.
    let knownIssues: Set<String>?
    private let recorded = Locked<[Event]>([])

    init(downloads: URL, knownIssues: Set<String>? = nil) {
        self.downloads = downloads
        self.knownIssues = knownIssues
    }

    var events: [Event] { recorded.current }

    func progressed(_ id: TransferID, _ progress: DownloadProgress) {
        recorded.withLock { $0.append(.progressed(id, progress)) }
    }

    func finished(_ id: TransferID, status: Int?, file: URL) {
        let bytes = try? Data(contentsOf: file)
        var taken: URL?
        if status == 200, knownIssues.map({ $0.contains(id.name) }) ?? true, bytes != nil {
            let target = downloads.appendingPathComponent("\(id).received")
            // Across file systems (the system's temporary folder may be one) a move is a copy.
            if (try? FileManager.default.moveItem(at: file, to: target)) != nil { taken = target }
        }
        recorded.withLock { $0.append(.finished(id, status: status, file: file, bytes: bytes, taken: taken)) }
    }

    func failed(_ id: TransferID, _ failure: TransferFailure, resumeData: Data?) {
        recorded.withLock { $0.append(.failed(id, failure, resumeData: resumeData)) }
    }

    func deliveredAllEvents(whenRecorded done: @escaping @Sendable () -> Void) {
        recorded.withLock { $0.append(.deliveredAllEvents) }
        done()
    }

    /// The events other than progress (what a transfer ended with).
    var outcomes: [Event] {
        events.filter {
            if case .progressed = $0 { return false }
            return true
        }
    }

    /// Waits for `id`'s transfer to end and says whether it ended as one finished file of
    /// status 200 that the sink took, with `bytes` in it both during the callback and where the
    /// sink put it, and nothing else.
    func handedOverOnce(_ id: TransferID, bytes: Data) async -> Bool {
        await waitUntil { events in
            events.contains {
                switch $0 {
                case .finished(id, _, _, _, _), .failed(id, _, _): true
                default: false
                }
            }
        }
        let outcomes = outcomes
        guard outcomes.count == 1, case .finished(id, 200, _, bytes?, let taken?) = outcomes[0] else { return false }
        return (try? Data(contentsOf: taken)) == bytes
    }

    /// Waits (up to `seconds`) until `condition` holds for the events; returns whether it did.
    @discardableResult
    func waitUntil(seconds: Double = 30, _ condition: @escaping @Sendable ([Event]) -> Bool) async -> Bool {
        await eventually(seconds: seconds) { condition(self.events) }
    }
}

/// Waits (up to `seconds`) until `condition` holds, looking every 20 ms; returns whether it did.
/// Tests assert on what it returns, never on how long it took.
func eventually(seconds: Double = 30, _ condition: @escaping @Sendable () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return true
}

/// A background session engine of a fresh identity (engines of one process must not share one),
/// its part files in `folder`, and its completion handlers called on a queue of its own.
func makeBackgroundEngine(
    parts folder: URL, identity: BackgroundSessionIdentity = BackgroundSessionIdentity(base: "test.\(UUID().uuidString)"),
    maxUnstatedBytes: Int64 = 64 << 20
) -> BackgroundSessionEngine {
    let settings = BackgroundSessionEngine.Settings(
        identity: identity, maxUnstatedBytes: maxUnstatedBytes,
        completionQueue: DispatchQueue(label: "test.completions"))
    return BackgroundSessionEngine(settings: settings) { folder.appendingPathComponent("\($0.name).zip.part") }
}

extension BackgroundSessionEngine {
    /// A lane's session (to make tasks the library did not, as an app might).
    func session(_ lane: BackgroundSessionLane) -> URLSession? { state.current.sessions[lane] }
}
