import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension BackgroundSessionEngine {
    /// What the engine shares between the sessions' delegate queues and its callers, under
    /// `state`'s lock.
    struct State {
        var sink: (any TransferEventSink)?
        /// Whether the first `attach` began opening the sessions.
        var isOpening = false
        var sessions: [BackgroundSessionLane: URLSession] = [:]
        /// The sessions of the app extensions whose transfers the app adopts, by slot.
        var adopted: [BackgroundSessionSlot: URLSession] = [:]
        /// Callers waiting for the sessions, by ticket.
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
        var lastTicket = 0
        /// The one task of each key.
        var tasks: [TransferID: LiveTask] = [:]
        /// Keys whose task is being made.
        var starting: Set<TransferID> = []
        /// Tasks whose outcome is settled: told to the sink, or cancelled by the engine (moved,
        /// cut, a second task of a key). Their later events say nothing, and they are never taken
        /// in again: FoundationNetworking lists a task as running until its completion returned.
        /// Kept by reference, so that no new task can take a settled one's identifier, until the
        /// system says they completed (`prune`).
        var settled: [ObjectIdentifier: URLSessionDownloadTask] = [:]
        /// Each session's wake, by identifier.
        var wakes: [String: BackgroundSessionWake] = [:]

        mutating func settle(_ task: URLSessionDownloadTask) { settled[ObjectIdentifier(task)] = task }

        func isSettled(_ task: URLSessionDownloadTask) -> Bool { settled[ObjectIdentifier(task)] != nil }

        /// Forgets the settled tasks among `completed`: the system lists them no more.
        mutating func prune(_ completed: [ObjectIdentifier]) {
            for key in completed { settled[key] = nil }
        }

        /// What `start` does with `job`.
        enum Decision {
            /// A task of the same key runs: kept, not doubled.
            case kept
            /// Make the task (the key is reserved in `starting`).
            case create
            /// The job is the user's and its key runs in the automatic lane: that task is
            /// cancelled and the transfer goes on in the user's lane.
            case move(LiveTask)
        }

        mutating func decide(_ job: TransferJob, in lane: BackgroundSessionLane) -> Decision {
            if starting.contains(job.id) { return .kept }
            if var live = tasks[job.id] {
                if live.lane == .automatic, lane == .user {
                    tasks[job.id] = nil
                    settle(live.task)
                    starting.insert(job.id)
                    return .move(live)
                }
                // A task found after a relaunch gets its job's size limit back.
                if live.job == nil {
                    live.job = job
                    tasks[job.id] = live
                }
                return .kept
            }
            starting.insert(job.id)
            return .create
        }

        /// The entry of `task`, the task of key `id` in `lane`: nil when its outcome is settled,
        /// or when another task holds the key. A task heard of before `report` took the
        /// system's tasks in (a relaunch's events) is entered here, without its job.
        mutating func live(_ task: URLSessionDownloadTask, id: TransferID, lane: BackgroundSessionLane) -> LiveTask? {
            guard !isSettled(task) else { return nil }
            if let live = tasks[id] { return live.task === task ? live : nil }
            let found = LiveTask(task: task, lane: lane)
            tasks[id] = found
            return found
        }
    }

    /// A task the engine follows.
    struct LiveTask {
        let task: URLSessionDownloadTask
        let lane: BackgroundSessionLane
        /// The job that made it; nil for a task found after a relaunch.
        var job: TransferJob?
        /// The part file's bytes its request continues (0: the whole file).
        var offset: Int64
        /// Bytes on disk when progress was last reported.
        var lastReported: Int64 = 0
        /// Whether it was made from resume data (which the system may refuse).
        var fromResumeData = false

        /// A task of `job`, or found (then its request says the offset).
        init(task: URLSessionDownloadTask, lane: BackgroundSessionLane, job: TransferJob? = nil, offset: Int64? = nil) {
            self.task = task
            self.lane = lane
            self.job = job
            self.offset = offset ?? BackgroundSessionRequest.offset(of: task.originalRequest)
        }

        /// Whether `failure` is the system refusing the resume data the task was made from
        /// (stale, or its temporary file purged): no response came and nothing new to resume
        /// from. Not a cancel: that is the library's or the system's own decision.
        func refused(_ failure: BackgroundSessionError, hadResponse: Bool) -> Bool {
            guard fromResumeData, !hadResponse, failure.resumeData == nil else { return false }
            switch failure.failure {
            case .cancelled, .cancelledBySystem: return false
            default: return true
            }
        }

        /// The most bytes the whole file may have.
        func limit(unstated: Int64) -> Int64 { job?.expectedSize ?? unstated }

        /// What the task has: the part's bytes and what it received, of the whole.
        var progress: DownloadProgress {
            let expected = task.countOfBytesExpectedToReceive
            return DownloadProgress(
                bytesReceived: offset + max(0, task.countOfBytesReceived),
                bytesExpected: expected > 0 ? offset + expected : job?.expectedSize)
        }
    }
}
