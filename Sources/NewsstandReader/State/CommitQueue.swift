import NewsstandCore

/// Runs the library's database work one job after another, in the order it was asked, each on a
/// `BlockingWork` thread: never on the actor or the cooperative pool (a commit syncs a file, and a
/// write waits for the writer lock). The actor takes a commit's rows and asks for it without a
/// suspension in between, so commits run in the order their rows were taken, and a later one
/// never writes an older value over a newer one. Each job's outcome is handed back (`then`, on
/// the actor) before the next job starts, so outcomes are also taken in, in that order.
final class CommitQueue: Sendable {
    /// The last job asked for; the next one waits for it.
    private let tail = Locked<Task<Void, Never>?>(nil)

    /// Runs `job` after every job asked before it, then `apply` with its result, and returns it.
    func run<Result: Sendable>(
        _ job: @escaping @Sendable () -> Result, then apply: @escaping @Sendable (Result) async -> Void
    ) async -> Result {
        let task: Task<Result, Never> = tail.withLock { tail in
            let previous = tail
            let next = Task { () -> Result in
                await previous?.value
                let result = await BlockingWork.run(job)
                await apply(result)
                return result
            }
            tail = Task { _ = await next.value }
            return next
        }
        return await task.value
    }

    /// Waits until every job asked so far has run.
    func drain() async {
        await tail.current?.value
    }
}
