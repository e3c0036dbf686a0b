import Foundation

/// A program started without waiting for it (the `newsstand` executable, usually), whose output
/// a test can read while it runs. A `TestChild`: it dies with the test process.
public final class BackgroundProcess: Sendable {
    private let child: TestChild

    /// Starts `executable` with `arguments`.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        child = try TestChild.start(executable, arguments, environment: environment)
    }

    /// What it printed on standard output so far.
    public var output: String { Shell.text(child.output) }
    /// What it printed on standard error so far.
    public var errors: String { Shell.text(child.errorOutput) }

    /// Waits for it to exit; returns its exit status, or the signal that ended it.
    @discardableResult
    public func wait() -> Int32 { TestChild.status(of: child.wait()) }

    /// Its process id.
    public var processIdentifier: Int32 { child.pid }

    /// Kills it at once with SIGKILL, as a crash or the system would, if it still runs (it
    /// alone: what it started is left to its own parent-death handling).
    public func killNow() { child.send(SIGKILL) }

    /// Sends it SIGINT, as a terminal's Ctrl-C would (it alone).
    public func interrupt() { child.send(SIGINT) }

    /// Stops it if it still runs (for cleanup after a failed expectation): SIGTERM to its group.
    public func kill() { child.stop() }

    /// Waits (up to `timeout` seconds) until `condition` holds; returns whether it did.
    public static func poll(timeout: TimeInterval = 30, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }
}
