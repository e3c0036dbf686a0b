import Foundation
import NewsstandCore
import NewsstandReader

/// Runs blocking work one piece at a time, in the order given, on a `BlockingWork` thread that
/// exists only while there is work: what an engine needs for calls that must not interleave
/// (starting a daemon, a poll, a cancel) and that block (RPC over a socket, files, waiting for a
/// process), where an actor would interleave at every `await` and hold the cooperative pool.
final class SerialLane: Sendable {
    private struct Queue {
        var work: [@Sendable () -> Void] = []
        var isDraining = false
    }

    private let queue = Locked(Queue())

    init() {}

    /// Runs `work` after everything enqueued before it; returns its result without holding a
    /// thread of the pool.
    func run<T: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> T) async throws(Failure) -> T {
        let result: Result<T, Failure> = await withCheckedContinuation { continuation in
            enqueue { continuation.resume(returning: Result { () throws(Failure) -> T in try work() }) }
        }
        return try result.get()
    }

    /// Runs `work` in turn and blocks the calling thread until it is done: for threads of our
    /// own (a poller), never the cooperative pool.
    func runAndWait(_ work: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        enqueue {
            work()
            done.signal()
        }
        done.wait()
    }

    private func enqueue(_ work: @escaping @Sendable () -> Void) {
        let startsDrain = queue.withLock { queue in
            queue.work.append(work)
            defer { queue.isDraining = true }
            return !queue.isDraining
        }
        if startsDrain { BlockingWork.start { self.drain() } }
    }

    private func drain() {
        while let next = queue.withLock({ queue -> (@Sendable () -> Void)? in
            guard !queue.work.isEmpty else {
                queue.isDraining = false
                return nil
            }
            return queue.work.removeFirst()
        }) {
            next()
        }
    }
}
