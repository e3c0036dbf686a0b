/// The system's completion handlers for one background session, and whether the session has
/// delivered every event of this wake. iOS relaunches (or resumes) an app for a session's events
/// and gives it a completion handler (`application(_:handleEventsForBackgroundURLSession:
/// completionHandler:)`); the session then delivers the events and ends with
/// `urlSessionDidFinishEvents(forBackgroundURLSession:)`, after which the handler must be called,
/// once. Either may come first: an app that opens its library at launch has the session
/// delivering before the app delegate hands over the handler.
///
/// A value with no I/O: `BackgroundSessionEngine` keeps one per lane under its lock and calls
/// what these functions return, so every order is tested without a device
/// (BackgroundSessionWakeTests).
struct BackgroundSessionWake {
    typealias Handler = @Sendable () -> Void

    /// Handlers given for this wake, waiting for the session to deliver its events.
    private(set) var waiting: [Handler] = []
    /// Whether the session said it delivered everything and no event came after: a handler
    /// given now has nothing left to wait for.
    private(set) var delivered = false

    /// The app handed over the system's handler: returns it when the events are already
    /// delivered (call it now), else keeps it.
    mutating func received(_ handler: @escaping Handler) -> [Handler] {
        if delivered {
            delivered = false
            return [handler]
        }
        waiting.append(handler)
        return []
    }

    /// The session delivered an event: whatever it said it had delivered before is over.
    mutating func eventArrived() {
        delivered = false
    }

    /// The session delivered every event it had, and the sink recorded them: returns the
    /// handlers to call now, each once; with none waiting, the next handler is called as soon
    /// as it comes.
    mutating func deliveredAllEvents() -> [Handler] {
        guard !waiting.isEmpty else {
            delivered = true
            return []
        }
        defer { waiting = [] }
        return waiting
    }
}
