import Foundation
import NewsstandCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Transfers on background `URLSession`s: on Apple platforms the system runs them outside the
/// process, so they go on while the app is suspended, crashed or killed (not force-quit by the
/// user), and an app relaunched for their events gets them by opening the same sessions. On
/// Linux, FoundationNetworking has no background sessions and runs the same code in process
/// (`BackgroundSessionPlatform` is the island), which is how the tests run it.
///
/// - Two sessions per library (`BackgroundSessionIdentity`): what the user asked, and what the
///   app fetches on its own in a discretionary one (`isDiscretionary` is a session's setting).
/// - A task's `taskDescription` is its `TransferID`: task identifiers start at 1 in every
///   session and are no key. A task with any other description is not the library's: it is
///   neither reported nor cancelled, and its events and files are left alone.
/// - The sessions open on the first `attach`, so no event can arrive before there is a sink
///   (the system keeps a relaunch's events until the session is opened); `start`, `cancel` and
///   `report` wait for it.
/// - The hand-off happens inside `didFinishDownloadingTo` (`BackgroundSessionEngine+Events`).
/// - The sink is called on the sessions' serial delegate queues, and must return without
///   waiting for this engine's `start`, `cancel` or `report`: they need those queues (URLSession
///   answers `getAllTasks` there), so such a wait never ends.
/// - One engine per identity per process: URLSession refuses a second background session with
///   an identifier in use, and the two would share events.
final class BackgroundSessionEngine: TransferEngine {
    /// What the engine needs from the library and the app.
    struct Settings: Sendable {
        /// The sessions' identifiers.
        var identity: BackgroundSessionIdentity
        /// The app group whose container an extension's transfers land in (nil for an app).
        var sharedContainerIdentifier: String?
        /// The identities of the app extensions whose sessions this engine opens too, adopting
        /// their transfers (an app's engine; `BackgroundEngine.urlSession`'s
        /// `extensionBundleIdentifiers`).
        var adoptedIdentities: [BackgroundSessionIdentity] = []
        /// `httpMaximumConnectionsPerHost` of the sessions.
        var connectionsPerHost = 2
        /// `timeoutIntervalForResource` of the sessions: a transfer not done by then fails (and
        /// the library starts it again). Three days.
        var resourceTimeout: TimeInterval = 3 * 24 * 3600
        /// The most bytes a bundle may have when the job states no size (also the cap of a
        /// task found after a relaunch, whose job is gone).
        var maxUnstatedBytes: Int64
        /// Where the system's completion handlers are called: the main queue, as UIKit wants.
        var completionQueue: DispatchQueue = .main
        /// One line per notable step: background transfers can only be understood from logs.
        var log: @Sendable (String) -> Void = { _ in }
    }

    let kind = TransferEngineKind.background
    let settings: Settings
    /// The part file a transfer of this key continues: the in-process engine's `.part`, which
    /// a foreground download hands over when the app's background time runs out. Asked again
    /// when the task finishes, which may be in a relaunched process that never saw the job.
    let partFile: @Sendable (TransferID) -> URL
    let state = Locked(State())

    /// An engine for the library whose sessions `settings.identity` names. Creating it opens
    /// nothing: an app may make it at launch, to hand it the system's completion handler
    /// (`handleEvents(forSession:completion:)`) before the library attaches.
    init(settings: Settings, partFile: @escaping @Sendable (TransferID) -> URL) {
        self.settings = settings
        self.partFile = partFile
    }

    func attach(_ sink: any TransferEventSink) {
        let opens = state.withLock { engine -> Bool in
            engine.sink = sink
            defer { engine.isOpening = true }
            return !engine.isOpening
        }
        guard opens else { return }
        var sessions: [BackgroundSessionLane: URLSession] = [:]
        for lane in BackgroundSessionLane.allCases {
            sessions[lane] = makeSession(BackgroundSessionSlot(settings.identity, lane))
        }
        var adopted: [BackgroundSessionSlot: URLSession] = [:]
        for slot in adoptedSlots { adopted[slot] = makeSession(slot) }
        let waiting = state.withLock { engine in
            engine.sessions = sessions
            engine.adopted = adopted
            defer { engine.waiting = [:] }
            return Array(engine.waiting.values)
        }
        for continuation in waiting { continuation.resume() }
        settings.log("background sessions \(settings.identity.base) open")
    }

    func start(_ job: TransferJob) async throws(TransferFailure) {
        try HTTPRequest.checkScheme(of: job.url)
        let sessions = try await openSessions()
        adopt(await liveTasks(in: sessions))
        let lane = BackgroundSessionLane(job.intent)
        switch state.withLock({ $0.decide(job, in: lane) }) {
        case .kept:
            settings.log("background \(job.id): already running, kept")
        case .create:
            create(job, in: lane, of: sessions)
        case .move(let automatic):
            // The user asked for what the app fetches on its own: out of the discretionary session.
            var moved = job
            moved.resumeData = await Self.resumeData(cancelling: automatic.task) ?? job.resumeData
            settings.log("background \(job.id): moved to the user's session")
            create(moved, in: .user, of: sessions)
        }
    }

    func cancel(_ id: TransferID, keepingData: Bool) async {
        guard let sessions = try? await openSessions() else { return }
        adopt(await liveTasks(in: sessions))
        let cancelled = state.withLock { engine -> LiveTask? in
            guard let live = engine.tasks.removeValue(forKey: id) else { return nil }
            engine.settle(live.task)
            return live
        }
        guard let cancelled else { return }
        let resumeData: Data?
        if keepingData {
            resumeData = await Self.resumeData(cancelling: cancelled.task)
        } else {
            resumeData = nil
            cancelled.task.cancel()
            if cancelled.offset > 0 { PartMetadata.discard(part: partFile(id)) }
        }
        settings.log("background \(id): cancelled\(resumeData == nil ? "" : " with resume data")")
        // Its own completion is settled: this is the one event the cancel makes, as in process.
        await deliver(on: cancelled.lane) { $0.failed(id, .cancelled, resumeData: resumeData) }
    }

    func report() async throws(TransferFailure) -> [TransferID: TransferReport] {
        let held = adopt(await liveTasks(in: try await openSessions()))
        return state.withLock { engine in
            var reports: [TransferID: TransferReport] = [:]
            for id in held {
                if let live = engine.tasks[id] { reports[id] = .running(live.progress) }
            }
            return reports
        }
    }

    /// Takes the system's completion handler for the session `identifier` (the app's
    /// `application(_:handleEventsForBackgroundURLSession:completionHandler:)`, through the
    /// library). It is called once, on `settings.completionQueue`, after the session delivered
    /// every event of this wake and the sink's `deliveredAllEvents()` returned; at once when
    /// that happened already. Returns false, keeping nothing, when `identifier` is not one of
    /// this engine's sessions.
    func handleEvents(forSession identifier: String, completion: @escaping @Sendable () -> Void) -> Bool {
        guard hasSession(identifier) else { return false }
        let now = state.withLock { $0.wakes[identifier, default: BackgroundSessionWake()].received(completion) }
        callSystem(now)
        return true
    }

    /// Lets go of the sessions (a session keeps its delegate until then), cancelling their
    /// tasks for good or letting them finish. An app never needs it (a library's engine lives as
    /// long as the process: `BackgroundSessionRegistry`); tests that open engines in turn do. A
    /// later `attach` opens the sessions again.
    func invalidate(cancellingTransfers: Bool) {
        BackgroundSessionRegistry.shared.remove(self)
        let sessions = state.withLock { engine in
            engine.isOpening = false
            defer {
                engine.sessions = [:]
                engine.adopted = [:]
            }
            return Array(engine.sessions.values) + Array(engine.adopted.values)
        }
        for session in sessions {
            if cancellingTransfers { session.invalidateAndCancel() } else { session.finishTasksAndInvalidate() }
        }
    }

    /// The sessions of the adopted extensions.
    var adoptedSlots: [BackgroundSessionSlot] {
        settings.adoptedIdentities.flatMap { identity in
            BackgroundSessionLane.allCases.map { BackgroundSessionSlot(identity, $0) }
        }
    }

    /// Whether `identifier` is one of the sessions this engine opens (its own or an adopted
    /// extension's).
    func hasSession(_ identifier: String) -> Bool {
        settings.identity.lane(of: identifier) != nil || settings.adoptedIdentities.contains { $0.lane(of: identifier) != nil }
    }

    /// Calls the system's completion handlers, each once, where UIKit wants them.
    func callSystem(_ handlers: [BackgroundSessionWake.Handler]) {
        for handler in handlers { settings.completionQueue.async(execute: handler) }
    }
}
