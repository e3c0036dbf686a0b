import Foundation

extension IssueLibrary {
    /// A stream of progress and status changes, for an app's UI. Each call makes a new stream.
    public func events() -> AsyncStream<LibraryEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LibraryEvent.self, bufferingPolicy: .bufferingNewest(512))
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeObserver(id) } }
        return stream
    }

    private func removeObserver(_ id: UUID) { observers[id] = nil }

    func emit(_ event: LibraryEvent) {
        for continuation in observers.values { continuation.yield(event) }
    }
}
