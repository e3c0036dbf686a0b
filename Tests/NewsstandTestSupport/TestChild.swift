import Foundation
import NewsstandCore
import NewsstandProcess

/// A program a test runs (a server, a checking tool, the built `newsstand`), started the one
/// way: NewsstandProcess's `ChildProcess` (posix_spawn, no signal blocked, every action the
/// default, standard input from `/dev/null`, a process group of its own) through
/// `TestChildGuard`, so it dies with the test process even when that is killed with SIGKILL;
/// and stopped (its group: SIGTERM, then SIGKILL) when the last reference to this goes away.
/// A server that starts processes of its own (nginx's master its worker) is started
/// `supervised`: the guard then stays as its parent and kills its whole process group when the
/// test process ends (see `start`).
///
/// Foundation's `Process` is not used: on Swift 6.3.1 its `run()` over-reads `dirent.d_name`
/// and crashes now and then (swift-corelibs-foundation#5472); ArchitectureTests keeps it out.
public final class TestChild: Sendable {
    /// The child's process id, and its process group's: the program's, or with `supervised`
    /// the guard's (`program` is then the program's).
    public let pid: pid_t
    /// Whether the guard stays as the program's parent (`start`).
    public let supervised: Bool
    private let child: ChildProcess
    private let outcome = Locked<ChildOutcome?>(nil)

    private init(_ child: ChildProcess, supervised: Bool) {
        self.child = child
        self.supervised = supervised
        pid = child.pid
    }

    /// Starts `executable` (a path, or a name `Shell.locate` finds) in `directory`, with
    /// `environment` over the test process's own. Standard output and error are kept, up to
    /// `outputLimit` bytes each (more stops the child).
    ///
    /// Without `supervised` the guard becomes the program, whose parent-death signal (SIGKILL)
    /// ends it alone: not what it started. With `supervised` the guard forks the program, which
    /// stays in the guard's process group (the child's own, `pid`) with what it starts, and
    /// waits: when the test process ends it kills that whole group; when the program ends it
    /// kills what the program left and ends the same way (exit status or signal). It ignores
    /// SIGTERM (`stop` sends it to the group: the program decides when to end), and `send`
    /// reaches the guard, not the program.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:], in directory: URL? = nil,
        outputLimit: Int = 256 << 20, supervised: Bool = false
    ) throws -> TestChild {
        let program = try Shell.locate(executable)
        let merged = environment.isEmpty ? nil : ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let options = ChildOptions(outputLimit: outputLimit, errorLimit: outputLimit, grace: 5, environment: merged)
        let mode = supervised ? ["--supervise"] : []
        let guardArguments = mode + [String(getpid()), directory?.path ?? "-", program] + arguments
        switch ChildStarter.start(try guardPath(), guardArguments, options: options) {
        case .success(let child): return TestChild(child, supervised: supervised)
        case .failure(let failure): throw TestFailure("cannot start \(executable): \(failure.reason)")
        }
    }

    /// What it has written to standard output so far.
    public var output: Data { child.outputSoFar.output }
    /// What it has written to standard error so far.
    public var errorOutput: Data { child.outputSoFar.errorOutput }
    /// Whether it has exited.
    public var hasExited: Bool { child.hasExited }

    /// The program's process id: `pid`, or with `supervised` the guard's first child; nil when
    /// the guard has not started the program yet, or the child has exited.
    public var program: pid_t? {
        guard !child.hasExited else { return nil }
        return supervised ? ProcessStatus.children(of: pid).first : pid
    }

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

    /// Sends `signalNumber` to the child alone (SIGKILL: as a crash or the system would); with
    /// `supervised`, to the guard.
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
