import Foundation
import NewsstandCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension BackgroundSessionEngine {
    /// One session, with a serial delegate queue of its own: its events reach the sink in the
    /// order they happened.
    func makeSession(_ slot: BackgroundSessionSlot) -> URLSession {
        let identifier = slot.identifier
        let configuration = BackgroundSessionPlatform.configuration(
            identifier: identifier, discretionary: slot.lane == .automatic,
            sharedContainerIdentifier: settings.sharedContainerIdentifier)
        // A few connections per host (the catalog's host serves every bundle), and a transfer
        // that has not ended in `resourceTimeout` fails: the library starts it again, a new
        // generation, at most `IssueLifecycle.maxRestarts` times.
        configuration.httpMaximumConnectionsPerHost = settings.connectionsPerHost
        configuration.timeoutIntervalForResource = settings.resourceTimeout
        // A cached answer to a ranged request would be the wrong bytes; the library asks the server.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = identifier
        return URLSession(
            configuration: configuration, delegate: BackgroundSessionDelegate(slot: slot, engine: self), delegateQueue: queue)
    }

    /// The sessions, once the first `attach` opened them; waits until then (`.cancelled` when
    /// the waiting task is).
    func openSessions() async throws(TransferFailure) -> [BackgroundSessionLane: URLSession] {
        let ticket = state.withLock { engine -> Int in
            engine.lastTicket += 1
            return engine.lastTicket
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { engine -> Bool in
                    if !engine.sessions.isEmpty || Task.isCancelled { return true }
                    engine.waiting[ticket] = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: ticket) }?.resume()
        }
        let sessions = state.withLock { $0.sessions }
        if sessions.isEmpty { throw .cancelled }
        return sessions
    }

    /// The download tasks the system holds now (running or suspended) in `sessions` and in the
    /// adopted extensions' sessions, user lane first, the engine's own before the extensions'.
    func liveTasks(in sessions: [BackgroundSessionLane: URLSession]) async -> [(BackgroundSessionLane, URLSessionDownloadTask)] {
        let adopted = state.withLock { $0.adopted }.sorted { ($0.key.lane == .user ? 0 : 1) < ($1.key.lane == .user ? 0 : 1) }
        let listed = BackgroundSessionLane.allCases.compactMap { lane in sessions[lane].map { (lane, $0) } }
        var live: [(BackgroundSessionLane, URLSessionDownloadTask)] = []
        for (lane, session) in listed + adopted.map({ ($0.key.lane, $0.value) }) {
            let tasks = await withCheckedContinuation { continuation in session.getAllTasks { continuation.resume(returning: $0) }
            }
            for case let task as URLSessionDownloadTask in tasks where task.state == .running || task.state == .suspended {
                live.append((lane, task))
            }
        }
        return live
    }

    /// Takes the system's tasks into the table (after a relaunch they are the only record) and
    /// returns the keys they hold. A key held by two tasks (a crash while one moved to the
    /// user's lane) keeps the one the table has, else the user lane's; the other is cancelled.
    @discardableResult
    func adopt(_ live: [(BackgroundSessionLane, URLSessionDownloadTask)]) -> Set<TransferID> {
        let running = Set(live.map { ObjectIdentifier($0.1) })
        // Read outside the lock: a task's state is the session's to guard.
        let completed = state.withLock { $0.settled }.filter { $0.value.state == .completed }.map(\.key)
        let (held, twins) = state.withLock { engine -> (Set<TransferID>, [URLSessionDownloadTask]) in
            engine.prune(completed)
            var held: Set<TransferID> = []
            var twins: [URLSessionDownloadTask] = []
            for (lane, task) in live {
                guard let id = TransferID(task.taskDescription ?? ""), !engine.isSettled(task) else {
                    continue
                }
                // The key's task in the table, when it is another and still running, keeps the key.
                let tabled = engine.tasks[id]
                if let tabled, tabled.task !== task, running.contains(ObjectIdentifier(tabled.task)) {
                    engine.settle(task)
                    twins.append(task)
                    continue
                }
                if tabled?.task !== task { engine.tasks[id] = LiveTask(task: task, lane: lane, job: tabled?.job) }
                held.insert(id)
            }
            return (held, twins)
        }
        for twin in twins {
            settings.log("background \(twin.taskDescription ?? ""): a second task of the key, cancelled")
            twin.cancel()
        }
        return held
    }

    /// Makes and resumes the task of `job` in `lane`: from its resume data (where the platform
    /// can), else continuing a usable part file (one already whole is handed over without a
    /// request), else for the whole file.
    func create(_ job: TransferJob, in lane: BackgroundSessionLane, of sessions: [BackgroundSessionLane: URLSession]) {
        guard let session = sessions[lane] else {
            state.withLock { _ = $0.starting.remove(job.id) }
            return
        }
        let limit = job.expectedSize ?? settings.maxUnstatedBytes
        let resumeData = BackgroundSessionPlatform.resumesFromResumeData ? job.resumeData : nil
        let point = resumeData == nil ? PartResumePoint.of(part: partFile(job.id), url: job.url, limit: limit) : .fresh
        if case .complete(let size) = point {
            // The key stays reserved until the hand-over ran: a second start must not hand it over again.
            settings.log("background \(job.id): the part file is whole (\(size) bytes)")
            session.delegateQueue.addOperation {
                self.handOverWholePart(job.id, in: BackgroundSessionSlot(self.settings.identity, lane))
            }
            return
        }
        let task =
            resumeData.map { session.downloadTask(withResumeData: $0) }
            ?? session.downloadTask(with: BackgroundSessionRequest.make(for: job, from: point))
        task.taskDescription = job.id.description
        // Lets the system plan the transfer (and a discretionary one around the data plan).
        if let size = job.expectedSize { task.countOfBytesClientExpectsToReceive = max(0, size - point.offset) }
        var live = LiveTask(task: task, lane: lane, job: job, offset: point.offset)
        live.fromResumeData = resumeData != nil
        state.withLock { engine in
            engine.starting.remove(job.id)
            engine.tasks[job.id] = live
        }
        task.resume()
        let from = resumeData != nil ? "resume data" : point.offset > 0 ? "byte \(point.offset) of the part file" : "the start"
        settings.log("background \(job.id) (\(lane.rawValue)): GET \(Redacted.message(job.url.absoluteString)) from \(from)")
    }

    /// Cancels `task`, keeping what the system can resume from (nil on Linux, and for a
    /// transfer that cannot be resumed).
    static func resumeData(cancelling task: URLSessionDownloadTask) async -> Data? {
        await withCheckedContinuation { continuation in task.cancel(byProducingResumeData: { continuation.resume(returning: $0) })
        }
    }

    /// Gives the sink `event` on `lane`'s delegate queue, in order with the session's own
    /// events, and returns once it was given.
    func deliver(on lane: BackgroundSessionLane, _ event: @escaping @Sendable (any TransferEventSink) -> Void) async {
        let (queue, sink) = state.withLock { ($0.sessions[lane]?.delegateQueue, $0.sink) }
        guard let queue, let sink else { return }
        await withCheckedContinuation { continuation in
            queue.addOperation {
                event(sink)
                continuation.resume()
            }
        }
    }
}

/// The request of a background download task, and what a task's request says back after a
/// relaunch, when the job that made it is gone.
enum BackgroundSessionRequest {
    /// The GET for `job`, continuing the part file from `point` when it is `partial`.
    static func make(for job: TransferJob, from point: PartResumePoint) -> URLRequest {
        var request = URLRequest(url: job.url, cachePolicy: .reloadIgnoringLocalCacheData)
        // A bundle as stored: `Range` offsets must be offsets in the file.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if case .partial(let offset, let validator) = point {
            request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
        }
        BackgroundSessionPlatform.applyNetworkPolicy(of: job, to: &request)
        return request
    }

    /// The part bytes `request` continues (its `Range: bytes=<offset>-`), 0 for a request of
    /// the whole file. The system keeps a task's request across relaunches, so this is known
    /// for every task, also one the process did not start.
    static func offset(of request: URLRequest?) -> Int64 {
        guard let range = request?.value(forHTTPHeaderField: "Range"), range.hasPrefix("bytes="), range.hasSuffix("-"),
            let offset = Int64(range.dropFirst(6).dropLast()), offset > 0
        else { return 0 }
        return offset
    }
}
