import Foundation
import NewsstandCore

/// Runs async work from a synchronous command and waits for its result. A command runs on the
/// thread that called `NewsstandCommand.run` (the main thread of the program, or a thread a
/// test made for it) and the work on the concurrency pool, so waiting cannot deadlock; called
/// from async code it would hold a pool thread while it waits, which is why it is `noasync`.
@available(*, noasync, message: "blocks its thread; call the async work directly")
func runBlocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let box = Locked<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result: Result<T, any Error>
        do { result = .success(try await work()) } catch { result = .failure(error) }
        box.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    guard let result = box.current else { throw CancellationError() }
    return try result.get()
}
