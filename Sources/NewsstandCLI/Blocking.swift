import Foundation

/// Runs async work from a synchronous command and waits for its result. Commands run on the
/// main thread and the work on the concurrency pool, so waiting cannot deadlock.
func runBlocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    guard let result = box.result else { throw CancellationError() }
    return try result.get()
}

/// Hands a result from the task to the waiting thread (the semaphore orders the accesses).
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, Error>?
}
