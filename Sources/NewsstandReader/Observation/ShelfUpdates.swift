import NewsstandCore

/// The updates of the shelf one follower takes, as an async sequence (`IssueLibrary.shelfUpdates()`).
/// Whatever arrives while the follower is busy is merged into the one update it takes next
/// (`ShelfUpdate.merge`), so memory holds at most one update, whatever the download rate. One
/// follower iterates it; it ends when the library closes or the iterating task is cancelled.
public final class ShelfUpdates: AsyncSequence, Sendable {
    /// Each value is one `ShelfUpdate`.
    public typealias Element = ShelfUpdate

    private struct Box {
        var pending = ShelfUpdate()
        var waiting: CheckedContinuation<ShelfUpdate?, Never>?
        var isFinished = false
    }

    private let box = Locked(Box())

    init() {}

    /// Hands `update` to the follower, or keeps it merged with what it has not taken yet.
    func send(_ update: ShelfUpdate) {
        guard !update.isEmpty else { return }
        let handOff: (CheckedContinuation<ShelfUpdate?, Never>, ShelfUpdate)? = box.withLock { box in
            guard !box.isFinished else { return nil }
            box.pending.merge(update)
            guard let waiting = box.waiting else { return nil }
            box.waiting = nil
            let value = box.pending
            box.pending = ShelfUpdate()
            return (waiting, value)
        }
        if let (waiting, value) = handOff { waiting.resume(returning: value) }
    }

    /// Ends the sequence (the library closed).
    func finish() {
        let waiting: CheckedContinuation<ShelfUpdate?, Never>? = box.withLock { box in
            box.isFinished = true
            defer { box.waiting = nil }
            return box.waiting
        }
        waiting?.resume(returning: nil)
    }

    /// Whether the follower is gone (finished, or cancelled while waiting).
    var isFinished: Bool { box.withLock { $0.isFinished } }

    /// The next update, waiting for one; nil once finished.
    func next() async -> ShelfUpdate? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<ShelfUpdate?, Never>) in
                let ready: ShelfUpdate?? = box.withLock { box in
                    if box.isFinished || Task.isCancelled {
                        box.isFinished = true
                        return .some(nil)
                    }
                    if !box.pending.isEmpty {
                        defer { box.pending = ShelfUpdate() }
                        return .some(box.pending)
                    }
                    box.waiting = continuation
                    return .none
                }
                if case .some(let value) = ready { continuation.resume(returning: value) }
            }
        } onCancel: {
            finish()
        }
    }

    /// An iterator over the updates.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let updates: ShelfUpdates

        /// The next update, waiting for one; nil once the library closed or the task was cancelled.
        public mutating func next() async -> ShelfUpdate? { await updates.next() }
    }

    /// The iterator; one follower iterates a sequence.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(updates: self) }
}
