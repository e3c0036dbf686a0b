import Foundation

/// Runs blocking test work (a build, a child process) on a thread of its own and rethrows its
/// error here, so an async test never holds one of the cooperative pool's threads (two on CI)
/// while it waits. Assertions stay in the test, on the values returned.
public func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
