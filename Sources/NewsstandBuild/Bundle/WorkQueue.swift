import Foundation

/// Runs independent jobs on up to `width` threads and collects their results in order.
/// The first failure stops jobs that have not started yet.
final class WorkQueue<Job: Sendable, Result: Sendable, Failure: Error>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var results: [Result?]
    private var failure: Failure?
    private let jobs: [Job]

    init(_ jobs: [Job]) {
        self.jobs = jobs
        results = Array(repeating: nil, count: jobs.count)
    }

    /// Runs `perform` on every job; `finished` is called after each one with the count done.
    func run(
        width: Int, perform: @Sendable (Job) throws(Failure) -> Result, finished: @Sendable (Int) -> Void
    ) throws(Failure) -> [Result] {
        let threads = max(1, min(width, jobs.count))
        let done = Counter()
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let index = take() {
                do throws(Failure) {
                    let result = try perform(jobs[index])
                    lock.withLock { results[index] = result }
                } catch {
                    lock.withLock { if failure == nil { failure = error } }
                }
                finished(done.increment())
            }
        }
        if let failure { throw failure }
        // Every job ran (a failure would have thrown): every result is there.
        return results.compactMap { $0 }
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
