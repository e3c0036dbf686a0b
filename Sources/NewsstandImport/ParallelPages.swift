import Foundation
import NewsstandCore

/// Runs one job per page on at most `width` threads of their own (never Swift's cooperative
/// pool: rendering blocks), each thread taking the next page when it is done with one, so no
/// more than `width` pages are under way at once whatever the number of pages. After the first
/// failure no new page is started and the pages under way are told to stop (their
/// `shouldStop` says true: a renderer is killed at once); that first failure is thrown.
enum ParallelPages {
    static func run(
        count: Int, width: Int, _ job: @escaping @Sendable (_ index: Int, _ shouldStop: () -> Bool) throws(ImportError) -> Void,
        finished: @escaping @Sendable (_ done: Int) -> Void
    ) throws(ImportError) {
        let state = Locked(State())
        let group = DispatchGroup()
        for _ in 0..<max(1, min(width, count)) {
            group.enter()
            BlockingWork.start {
                defer { group.leave() }
                while let index = state.withLock({ $0.next(below: count) }) {
                    do throws(ImportError) {
                        try job(index) { state.withLock { $0.failure != nil } }
                        // Reported under the lock, so counts are reported in order.
                        state.withLock { state in
                            state.done += 1
                            finished(state.done)
                        }
                    } catch {
                        state.withLock { if $0.failure == nil { $0.failure = error } }
                    }
                }
            }
        }
        group.wait()
        if let failure = state.current.failure { throw failure }
    }

    /// The next page to start, pages done and the first failure.
    private struct State {
        var nextIndex = 0
        var done = 0
        var failure: ImportError?

        mutating func next(below count: Int) -> Int? {
            guard failure == nil, nextIndex < count else { return nil }
            defer { nextIndex += 1 }
            return nextIndex
        }
    }
}
