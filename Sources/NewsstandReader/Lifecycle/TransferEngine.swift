import Foundation

/// Runs an issue's bundle transfers for a library: in this process (the library's own resumable download, `IssueLibrary+Transfer`), or
/// outside it so that they go on while the app is suspended or killed (an Apple background
/// `URLSession`, aria2 on Linux). The library knows a transfer only by its `TransferID`; an
/// engine keeps that key with the transfer (a task's `taskDescription`, an aria2 download's
/// options) so that a relaunched process can ask what became of it (`report()`).
///
/// Events reach the library through the `TransferEventSink` given to `attach(_:)`. The one rule
/// that matters: when a transfer finishes, its file may exist only during the engine's callback
/// (URLSession deletes it as the callback returns), so `TransferEventSink.finished` is
/// synchronous and short: it checks the status and moves the file into the library's
/// `Downloads/`, and nothing else; verifying and unpacking come later, on the library's side.
public protocol TransferEngine: AnyObject, Sendable {
    /// The kind saved with the transfers it runs.
    var kind: TransferEngineKind { get }
    /// Connects the library's sink; events that arrived before are delivered then, in order.
    func attach(_ sink: any TransferEventSink)
    /// Starts `job` (or continues it from `job.resumeData`, or, in process, from its part file).
    /// Returns once the engine has taken it; a job it already runs under the same key is kept.
    func start(_ job: TransferJob) async throws(TransferFailure)
    /// Stops a transfer; when `keepingData`, what it got is kept for a later start.
    func cancel(_ id: TransferID, keepingData: Bool) async
    /// What the engine holds for this library now: running, finished but not yet handed over,
    /// or failed, by key. A transfer it does not list is `unknown` to it.
    func report() async throws(TransferFailure) -> [TransferID: TransferReport]
    /// Whether `report()` lists a transfer that finished while no process listened until the
    /// library has it (aria2 keeps its finished downloads in its lists), or whether such a
    /// transfer may be missing from the report while its event is still on its way (a background
    /// URLSession: a relaunched app's events come after its session is created, and a reconcile
    /// asks before them). For an engine of the second kind, a reconcile waits up to
    /// `IssueLibrary.eventGrace` for the events of the transfers the report does not list before
    /// it takes them for lost, or until the engine says it delivered every event of a relaunch.
    /// False unless an engine says otherwise.
    var reportsFinishedTransfers: Bool { get }
    /// Stops delivering events to the attached sink (the library is closing); transfers that
    /// run outside the process go on, for the next `attach(_:)`. Nothing by default.
    func detach() async
    /// Stops what the engine runs outside the process (a daemon) when it has nothing left to
    /// run; what a command-line program calls before it exits. Returns whether nothing runs
    /// now. True by default: an engine with nothing of its own to stop.
    func stopIfIdle() async throws(TransferFailure) -> Bool
    /// For a system that wakes the app with a completion handler for one of its transfer
    /// sessions (`application(_:handleEventsForBackgroundURLSession:completionHandler:)`): when
    /// `identifier` is one of this engine's, it calls `completion` once every event of the wake
    /// reached the sink, and returns true; otherwise false. False by default.
    func handleEvents(forSession identifier: String, completion: @escaping @Sendable () -> Void) -> Bool
}

extension TransferEngine {
    /// False: a reconcile gives the engine's events their time before it starts a transfer again.
    public var reportsFinishedTransfers: Bool { false }
    /// Nothing to stop: the engine's events end with the library.
    public func detach() async {}
    /// Nothing of its own runs outside the process.
    public func stopIfIdle() async throws(TransferFailure) -> Bool { true }
    /// No system sessions.
    public func handleEvents(forSession identifier: String, completion: @escaping @Sendable () -> Void) -> Bool { false }
}

/// One transfer as the library gives it to an engine.
public struct TransferJob: Sendable, Equatable {
    /// The transfer's key.
    public var id: TransferID
    /// The bundle: the URL to request (a paid issue's signed link, new at every signing).
    public var url: URL
    /// The catalog's URL of the bundle, set from `url` when the job is made: what an engine
    /// matches a later generation's bytes by, as the in-process `.part` file does, since a
    /// signed link changes at every signing. Never a secret.
    public var catalogURL: URL
    /// The size the catalog states; an engine stops a body that grows past it.
    public var expectedSize: Int64?
    /// Who asked: automatic jobs may wait for a good network.
    public var intent: TransferIntent
    /// What a failed attempt left to continue from (URLSession's resume data), when any.
    public var resumeData: Data?
    /// Whether the transfer may use a cellular connection (where the platform can tell).
    public var allowsCellularAccess = true
    /// Whether it may use a network the system calls expensive: cellular, a personal hotspot
    /// (Apple platforms, iOS 13 and later).
    public var allowsExpensiveNetworkAccess = true
    /// Whether it may use a network the user marked constrained: Low Data Mode (Apple
    /// platforms, iOS 13 and later).
    public var allowsConstrainedNetworkAccess = true

    /// A job for `id`.
    public init(id: TransferID, url: URL, expectedSize: Int64?, intent: TransferIntent, resumeData: Data? = nil) {
        self.id = id
        self.url = url
        catalogURL = url
        self.expectedSize = expectedSize
        self.intent = intent
        self.resumeData = resumeData
    }
}

/// What an engine says of one transfer (`TransferEngine.report()`).
public enum TransferReport: Sendable, Equatable {
    /// Running, with the bytes so far.
    case running(DownloadProgress)
    /// Finished: the file is complete at `file`, in the engine's own folder, not yet handed to
    /// the library (aria2 keeps its finished files; URLSession never reports this, it calls
    /// `TransferEventSink.finished` instead).
    case finished(file: URL, status: Int?)
    /// Stopped with `failure`; `resumable` when a later start can continue what it got.
    case failed(TransferFailure, resumable: Bool)
}

/// Where an engine sends its events. Called from the engine's threads; never blocks for long.
public protocol TransferEventSink: Sendable {
    /// Bytes arrived.
    func progressed(_ id: TransferID, _ progress: DownloadProgress)
    /// The transfer finished with the response `status` (nil when the engine does not know it)
    /// and the body in `file`, which may vanish when this returns: the sink takes the file (or
    /// refuses it: a 404's body also arrives as a finished file) before it returns.
    func finished(_ id: TransferID, status: Int?, file: URL)
    /// The transfer failed; `resumeData` is what URLSession gave to continue it, when any.
    func failed(_ id: TransferID, _ failure: TransferFailure, resumeData: Data?)
    /// The engine delivered every event it had for a relaunch of the app
    /// (`urlSessionDidFinishEvents(forBackgroundURLSession:)`): returns at once, and calls
    /// `recorded` once every event before it is recorded (the system's completion handler of the
    /// wake is called then, so the app is not suspended before the rows are committed).
    func deliveredAllEvents(whenRecorded recorded: @escaping @Sendable () -> Void)
}

extension TransferEventSink {
    /// `deliveredAllEvents(whenRecorded:)`, for an engine with nothing to call after.
    public func deliveredAllEvents() { deliveredAllEvents(whenRecorded: {}) }
}
