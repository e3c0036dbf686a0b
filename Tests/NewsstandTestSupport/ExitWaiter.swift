import Foundation

/// Waits for a child process to exit without burning a core: on Linux `waitUntilExit()` spins
/// the calling thread's run loop for as long as the child runs, which starved the timing of
/// parallel tests on a 2-core machine.
public final class ExitWaiter: Sendable {
    private let exited = DispatchSemaphore(value: 0)

    /// Watches `process`; create it before `process.run()`.
    public init(_ process: Process) {
        let exited = self.exited
        process.terminationHandler = { _ in exited.signal() }
    }

    /// Blocks until the process has exited (may be called more than once).
    public func wait() {
        exited.wait()
        exited.signal()
    }
}

extension Process {
    /// Runs the process and returns what waits for its exit.
    public func runWaitable() throws -> ExitWaiter {
        let waiter = ExitWaiter(self)
        try run()
        return waiter
    }
}
