import Foundation

/// Blocking work (file I/O, hashing, unpacking, parsing, a child process, a libcurl transfer)
/// on a thread of its own, never on an actor or Swift's cooperative pool: the pool has as many
/// threads as cores (two on CI), so one long blocking call there stalls every task.
public enum BlockingWork {
    /// The name of the threads, so tests and logs can tell where work ran.
    public static let threadName = "newsstand.blocking"

    /// Runs `work` on a new thread and waits for its result without holding a thread.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: work()) }
        }
    }

    /// Starts `work` on a new thread without waiting for it.
    public static func start(_ work: @escaping @Sendable () -> Void) {
        let thread = Thread {
            Thread.current.threadDictionary[marker] = true
            work()
        }
        thread.name = threadName
        thread.start()
    }

    private static let marker = "newsstand.blocking-work"

    /// Whether the calling code runs on one of these threads.
    public static var isCurrentThread: Bool { Thread.current.threadDictionary[marker] as? Bool == true }
}
