import Foundation
import NewsstandCore

/// Runs independent jobs on up to `width` threads and collects their results in order.
/// The first failure stops jobs that have not started yet. The calling thread runs jobs too;
/// the others are threads of their own (`BlockingWork`), never Dispatch's global pool: its
/// workers are as many as the cores, and a build's long jobs held there would starve whatever
/// else in the process needs them (URLSession's callbacks and timers, for one).
final class WorkQueue<Job: Sendable, Result: Sendable, Failure: Error>: Sendable {
    private let jobs: [Job]
    private let state: Locked<State>

    /// The next job to start, the results so far and the first failure.
    private struct State {
        var next = 0
        var results: [Result?]
        var failure: Failure?
    }

    init(_ jobs: [Job]) {
        self.jobs = jobs
        state = Locked(State(results: Array(repeating: nil, count: jobs.count)))
    }

    /// Runs `perform` on every job; `finished` is called after each one with the count done.
    func run(
        width: Int, perform: @escaping @Sendable (Job) throws(Failure) -> Result, finished: @escaping @Sendable (Int) -> Void
    ) throws(Failure) -> [Result] {
        let threads = max(1, min(width, jobs.count))
        let done = Locked(0)
        let work: @Sendable () -> Void = {
            while let index = self.take() {
                do throws(Failure) {
                    let result = try perform(self.jobs[index])
                    self.state.withLock { $0.results[index] = result }
                } catch {
                    self.state.withLock { if $0.failure == nil { $0.failure = error } }
                }
                finished(
                    done.withLock { count in
                        count += 1
                        return count
                    })
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
        let outcome = state.current
        if let failure = outcome.failure { throw failure }
        // Every job ran (a failure would have thrown): every result is there.
        return outcome.results.compactMap { $0 }
    }

    private func take() -> Int? {
        state.withLock { state in
            guard state.failure == nil, state.next < jobs.count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
    }
}
