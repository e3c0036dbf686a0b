import Foundation
import NewsstandCore

/// Runs independent jobs on up to `width` threads and collects their results in order.
/// The first failure stops jobs that have not started yet. The calling thread runs jobs too;
/// the others are threads of their own (`BlockingWork`), never Dispatch's global pool: its
/// workers are as many as the cores, and a build's long jobs held there would starve whatever
/// else in the process needs them (URLSession's callbacks and timers, for one).
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
        width: Int, perform: @escaping @Sendable (Job) throws(Failure) -> Result, finished: @escaping @Sendable (Int) -> Void
    ) throws(Failure) -> [Result] {
        let threads = max(1, min(width, jobs.count))
        let done = Counter()
        let work: @Sendable () -> Void = {
            while let index = self.take() {
                do throws(Failure) {
                    let result = try perform(self.jobs[index])
                    self.lock.withLock { self.results[index] = result }
                } catch {
                    self.lock.withLock { if self.failure == nil { self.failure = error } }
                }
                finished(done.increment())
            }
        }
        let helpers = DispatchGroup()
        for _ in 1..<threads {
            helpers.enter()
            BlockingWork.start {
                work()
                helpers.leave()
            }
        }
        work()
        helpers.wait()
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
