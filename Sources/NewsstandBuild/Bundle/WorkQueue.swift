import Foundation

/// Runs independent jobs on up to `width` threads and collects their results in order.
/// The first failure stops jobs that have not started yet.
final class WorkQueue<Result: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var results: [Result?]
    private var failure: Error?
    private let jobs: [@Sendable () throws -> Result]

    init(_ jobs: [@Sendable () throws -> Result]) {
        self.jobs = jobs
        results = Array(repeating: nil, count: jobs.count)
    }

    /// Runs every job; `finished` is called (under a lock) after each one with the count done.
    func run(width: Int, finished: @Sendable (Int) -> Void) throws -> [Result] {
        let threads = max(1, min(width, jobs.count))
        let done = Counter()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let index = take() {
                do {
                    let result = try jobs[index]()
                    lock.withLock { results[index] = result }
                } catch {
                    lock.withLock { if failure == nil { failure = error } }
                }
                finished(done.increment())
            }
        }
        if let failure { throw failure }
        return results.map { $0! }
    }

    private func take() -> Int? {
        lock.withLock {
            guard failure == nil, next < jobs.count else { return nil }
            defer { next += 1 }
            return next
        }
    }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func increment() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
