import Foundation
import NewsstandCore
import NewsstandProcess

/// A program a test runs (a server, a checking tool, the built `newsstand`), started the one
/// way: NewsstandProcess's `ChildProcess` (posix_spawn, no signal blocked, every action the
/// default, standard input from `/dev/null`, a process group of its own) through
/// `TestChildGuard`, so it dies with the test process even when that is killed with SIGKILL;
/// and stopped (its group: SIGTERM, then SIGKILL) when the last reference to this goes away.
///
/// Foundation's `Process` is not used: on Swift 6.3.1 its `run()` over-reads `dirent.d_name`
/// and crashes now and then (swift-corelibs-foundation#5472); ArchitectureTests keeps it out.
public final class TestChild: Sendable {
    /// The child's process id (the guard becomes the program, so it is the program's).
    public let pid: pid_t
    private let child: ChildProcess
    private let outcome = Locked<ChildOutcome?>(nil)

    private init(_ child: ChildProcess) {
        self.child = child
        pid = child.pid
    }

    /// Starts `executable` (a path, or a name `Shell.locate` finds) in `directory`, with
    /// `environment` over the test process's own. Standard output and error are kept, up to
    /// `outputLimit` bytes each (more stops the child).
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        outputLimit: Int = 256 << 20
    ) throws -> TestChild {
        let program = try Shell.locate(executable)
        let merged = environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let options = ChildOptions(outputLimit: outputLimit, errorLimit: outputLimit, grace: 5, environment: merged)
        let guardArguments = [String(getpid()), directory?.path ?? "-", program] + arguments
        switch ChildStarter.start(try guardPath(), guardArguments, options: options) {
        case .success(let child): return TestChild(child)
        case .failure(let failure): throw TestFailure("cannot start \(executable): \(failure.reason)")
        }
    }

    /// What it has written to standard output so far.
    public var output: Data { child.outputSoFar.output }
    /// What it has written to standard error so far.
    public var errorOutput: Data { child.outputSoFar.errorOutput }
    /// Whether it has exited.
    public var hasExited: Bool { child.hasExited }

    /// Waits for its end and returns what it did (the same outcome on every call).
    @discardableResult
    public func wait() -> ChildOutcome {
        outcome.withLock { outcome in
            if let outcome { return outcome }
            let ended = child.wait()
            outcome = ended
            return ended
        }
    }

    /// Stops it and its group (SIGTERM, SIGKILL after `grace` seconds) and waits for it.
    @discardableResult
    public func stop(grace: Double = 5) -> ChildOutcome {
        child.stop(.cancelled, grace: grace)
        return wait()
    }

    /// How `outcome` ended as the tests' callers read it: the exit status, or the number of the
    /// signal that ended it (what Foundation's `terminationStatus` said, and the tests compare
    /// with `SIGKILL`).
    public static func status(of outcome: ChildOutcome) -> Int32 {
        switch outcome.termination {
        case .exited(let code): code
        case .signalled(let signal): signal
        }
    }

    /// Sends `signalNumber` to the child alone (SIGKILL: as a crash or the system would).
    public func send(_ signalNumber: Int32) { child.send(signalNumber) }

    deinit {
        // Waited for also when it had ended, so NewsstandProcess forgets it.
        if outcome.current == nil {
            child.stop(.cancelled, grace: 1)
            _ = child.wait()
        }
    }

    /// `TestChildGuard`, built beside `newsstand` (`swift build` builds every executable).
    private static func guardPath() throws -> String {
        let path = URL(fileURLWithPath: Shell.newsstand).deletingLastPathComponent().appendingPathComponent("TestChildGuard").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestFailure("\(path) is not built: run swift build first")
        }
        return path
    }
}
