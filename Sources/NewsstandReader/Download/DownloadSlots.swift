/// A counting semaphore for downloads: at most `limit` run, the rest wait in order. Waiting
/// is cancellable. The library queues itself instead of handing every request to URLSession,
/// whose timeouts start when a task is queued.
actor DownloadSlots {
    private let limit: Int
    private var running = 0
    private var waiting: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
    private var nextID = 0

    init(limit: Int) { self.limit = max(1, limit) }

    /// Waits for a free slot. Returns false when the waiting task was cancelled (no slot taken).
    func acquire() async -> Bool {
        if running < limit {
            running += 1
            return true
        }
        let id = nextID
        nextID += 1
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: false)
                } else {
                    waiting.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    /// Gives a slot back, handing it to the first waiter.
    func release() {
        if waiting.isEmpty {
            running -= 1
        } else {
            waiting.removeFirst().continuation.resume(returning: true)
        }
    }

    private func cancelWaiter(_ id: Int) {
        guard let index = waiting.firstIndex(where: { $0.id == id }) else { return }
        waiting.remove(at: index).continuation.resume(returning: false)
    }
}
