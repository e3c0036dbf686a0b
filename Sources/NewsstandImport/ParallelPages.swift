import Foundation
import NewsstandCore

/// Runs one job per page on at most `width` threads of their own (never Swift's cooperative
/// pool: rendering blocks), each thread taking the next page when it is done with one, so no
/// more than `width` pages are in memory at once whatever the number of pages. After the first
/// failure no new page is started; pages under way finish, and that first failure is thrown.
enum ParallelPages {
    static func run(
        count: Int, width: Int, _ job: @escaping @Sendable (Int) throws(ImportError) -> Void,
        finished: @escaping @Sendable (_ done: Int) -> Void
    ) throws(ImportError) {
        let state = State()
        let group = DispatchGroup()
        for _ in 0..<max(1, min(width, count)) {
            group.enter()
            BlockingWork.start {
                defer { group.leave() }
                while let index = state.next(below: count) {
                    do throws(ImportError) {
                        try job(index)
                        state.finishOne(then: finished)
                    } catch {
                        state.fail(error)
                    }
                }
            }
        }
        group.wait()
        if let failure = state.failure { throw failure }
    }

    /// The next page to start, pages done and the first failure, under one lock.
    private final class State: @unchecked Sendable {
        private let lock = NSLock()
        private var nextIndex = 0
        private var done = 0
        private var firstFailure: ImportError?

        func next(below count: Int) -> Int? {
            lock.withLock {
                guard firstFailure == nil, nextIndex < count else { return nil }
                defer { nextIndex += 1 }
                return nextIndex
            }
        }

        /// Counts a page done and reports the count under the lock, so counts are reported in order.
        func finishOne(then report: (Int) -> Void) {
            lock.withLock {
                done += 1
                report(done)
            }
        }

        func fail(_ error: ImportError) {
            lock.withLock { if firstFailure == nil { firstFailure = error } }
        }

        var failure: ImportError? { lock.withLock { firstFailure } }
    }
}
