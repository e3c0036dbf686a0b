import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program started without waiting for it (the `newsstand` executable, usually), its output
/// going to files that a test can read while it runs.
public final class BackgroundProcess: @unchecked Sendable {  // safe: the Process is started in init, then only signalled
    private let process = Process()
    private let exit: ExitWaiter
    private let outputFile: URL
    private let errorFile: URL

    /// Starts `executable` with `arguments`; its output goes to files in a new temporary folder.
    public init(_ executable: String, _ arguments: [String]) throws {
        let folder = try Shell.temporaryFolder("process")
        outputFile = folder.appendingPathComponent("stdout")
        errorFile = folder.appendingPathComponent("stderr")
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        process.executableURL = URL(fileURLWithPath: try Shell.locate(executable))
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        exit = try process.runWaitable()
    }

    /// What it printed on standard output so far.
    public var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }
    /// What it printed on standard error so far.
    public var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Waits for it to exit; returns its exit status.
    @discardableResult
    public func wait() -> Int32 {
        exit.wait()
        return process.terminationStatus
    }

    /// Its process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// Kills it at once with SIGKILL, as a crash or the system would, if it still runs.
    public func killNow() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// Kills it if it still runs (for cleanup after a failed expectation).
    public func kill() {
        if process.isRunning { process.terminate() }
    }

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
