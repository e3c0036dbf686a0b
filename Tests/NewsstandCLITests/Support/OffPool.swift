import Foundation
import NewsstandCore
import NewsstandTestSupport

/// Runs blocking work (a child process, unpacking a tarball) on a `BlockingWork` thread: a test
/// that waits for a minute-long pipeline on one of the cooperative pool's two threads starves
/// every other test of the parallel suite.
func offPool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    let result: Result<T, any Error> = await BlockingWork.run { Result { try work() } }
    return try result.get()
}

extension Shell {
    /// `Shell.run`, waited for off the cooperative pool.
    static func runOffPool(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil
    ) async throws -> Shell.Result {
        try await offPool { try Shell.run(executable, arguments, environment: environment, in: directory) }
    }
}
