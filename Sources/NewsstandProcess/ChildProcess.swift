#if os(Linux) || os(macOS)
    import Foundation
    import NewsstandCore

    /// A program newsstand runs (rclone for `publish`; any command that needs one), started the
    /// one way: `posix_spawnp` with no signal blocked and every signal's action the default,
    /// standard input from `/dev/null`, in a process group of its own, its output read on a
    /// thread of its own within limits, and stopped the one way: SIGTERM to its group, SIGKILL
    /// after a grace period, then waited for.
    ///
    /// Foundation's `Process` on Linux started children with the signal mask of the thread that
    /// started them (a dozen signals blocked) and nothing stopped them when newsstand ended: a
    /// Ctrl-C ended newsstand, and rclone, re-parented to init, kept uploading. Here the group of
    /// its own keeps a terminal's Ctrl-C from reaching the child behind our back; newsstand stops
    /// it in order instead (`ChildProcesses`: on SIGINT or SIGTERM every running child is stopped
    /// and waited for, then newsstand ends as the signal says), and so does a cancelled task, a
    /// deadline and output over its limit.
    ///
    /// Blocking: `run` waits on the calling thread; call it from a `BlockingWork` thread, or use
    /// the `async` form, which does.
    public final class ChildProcess: Sendable {
        /// The child's process id (and its process group's).
        public let pid: pid_t
        let program: String
        let options: ChildOptions
        private let state = Locked(State())
        /// Left once the child has exited and its status has been collected.
        private let exited = DispatchGroup()
        /// Left once both pipes are read to their end (or given up on).
        private let drained = DispatchGroup()

        private struct State {
            /// True once the child is a zombie: from then on no signal goes to its id.
            var hasExited = false
            var termination: ChildTermination?
            var stop: ChildStopReason?
            var output = Data()
            var errorOutput = Data()
            /// Standard output went past its limit (the child is being stopped).
            var overflowed = false
            /// The child has exited and its pipes are no longer waited for (a grandchild may
            /// hold them open).
            var abandoned = false
        }

        private init(pid: pid_t, program: String, options: ChildOptions) {
            self.pid = pid
            self.program = program
            self.options = options
        }

        /// Runs `program` (looked up on `PATH`) with `arguments` to its end, or until `options`
        /// stop it. Refused while newsstand is stopping on a signal.
        public static func run(
            _ program: String, _ arguments: [String], options: ChildOptions = ChildOptions()
        ) -> Result<ChildOutcome, ChildFailure> {
            start(program, arguments, options: options).map { $0.wait() }
        }

        /// Starts `program` without waiting for it; `wait()` must follow (it applies the
        /// deadline, counted from then). For a caller that needs the child's id while it runs.
        public static func start(
            _ program: String, _ arguments: [String], options: ChildOptions = ChildOptions()
        ) -> Result<ChildProcess, ChildFailure> {
            ChildProcesses.start { () throws(ChildFailure) in try spawn(program, arguments, options: options) }
        }

        /// `run` on a `BlockingWork` thread; cancelling the task stops the child (SIGTERM, then
        /// SIGKILL after the grace period) and waits for it.
        public static func run(
            _ program: String, _ arguments: [String], options: ChildOptions = ChildOptions()
        ) async -> Result<ChildOutcome, ChildFailure> {
            let started = Locked<Started>(.notYet)
            return await withTaskCancellationHandler {
                await BlockingWork.run {
                    if case .cancelled = started.current { return .failure(.cancelled) }
                    let child: ChildProcess
                    switch start(program, arguments, options: options) {
                    case .success(let spawned): child = spawned
                    case .failure(let failure): return .failure(failure)
                    }
                    // Cancelled while it started: stopped at once.
                    let cancelled = started.withLock { state -> Bool in
                        if case .cancelled = state { return true }
                        state = .running(child)
                        return false
                    }
                    if cancelled { child.stop(.cancelled, grace: options.grace) }
                    return .success(child.wait())
                }
            } onCancel: {
                let child = started.withLock { state -> ChildProcess? in
                    guard case .running(let child) = state else {
                        state = .cancelled
                        return nil
                    }
                    return child
                }
                if let child { BlockingWork.start { child.stop(.cancelled, grace: options.grace) } }
            }
        }

        private enum Started {
            case notYet, cancelled
            case running(ChildProcess)
        }

        /// Stops the child: SIGTERM to its process group, then SIGKILL when it has not exited
        /// after `grace` seconds. Returns once it has exited. The first reason given is kept.
        public func stop(_ reason: ChildStopReason, grace: Double) {
            let sent = state.withLock { state -> Bool in
                guard !state.hasExited else { return false }
                if state.stop == nil { state.stop = reason }
                return killpg(pid, SIGTERM) == 0
            }
            guard sent else { return }
            if exited.wait(timeout: .now() + grace) == .timedOut {
                state.withLock { state in
                    if !state.hasExited { _ = killpg(pid, SIGKILL) }
                }
            }
            exited.wait()
        }

        /// Waits for the child's end, stopping it at the deadline, and collects what it wrote.
        /// A child stopped because newsstand got SIGINT or SIGTERM does not return here: the
        /// process ends by that signal once every child has stopped (`ChildProcesses`).
        public func wait() -> ChildOutcome {
            if let deadline = options.deadline, exited.wait(timeout: .now() + deadline) == .timedOut {
                stop(.deadline, grace: options.grace)
            }
            exited.wait()
            // A child that left a grandchild holding its pipes is not waited for past this.
            if drained.wait(timeout: .now() + 2) == .timedOut { state.withLock { $0.abandoned = true } }
            ChildProcesses.finished(pid)
            if case .interrupted? = state.withLock({ $0.stop }) { ChildProcesses.holdWhileStopping() }
            return state.withLock { state in
                ChildOutcome(
                    termination: state.termination ?? .signalled(SIGKILL), output: state.output, errorOutput: state.errorOutput,
                    stop: state.stop)
            }
        }

        /// Whether the child has exited (its id may be another process's from then on).
        public var hasExited: Bool { state.withLock { $0.hasExited } }

        /// What the child has written so far (within the limits), while it runs: for a caller
        /// that reads a server's first line before it waits for the server.
        public var outputSoFar: (output: Data, errorOutput: Data) { state.withLock { ($0.output, $0.errorOutput) } }

        /// Sends `signalNumber` to the child alone (not its group), unless it has exited: what a
        /// crash or the system would do to it (SIGKILL), where `stop` asks it to end in order.
        public func send(_ signalNumber: Int32) {
            state.withLock { state in
                if !state.hasExited { _ = kill(pid, signalNumber) }
            }
        }

        // MARK: Starting

        /// Starts the child and the threads that wait for it and read its pipes.
        private static func spawn(_ program: String, _ arguments: [String], options: ChildOptions) throws(ChildFailure)
            -> ChildProcess
        {
            let output = try ChildPipe.make(program)
            let errorOutput = try ChildPipe.make(program)
            defer {
                output.closeWriting()
                errorOutput.closeWriting()
            }
            let pid = try ChildSpawn.spawn(
                program, arguments, environment: options.environment, standardOutput: output.writing,
                standardError: errorOutput.writing)
            let child = ChildProcess(pid: pid, program: program, options: options)
            child.exited.enter()
            child.drained.enter()
            BlockingWork.start { child.waitForExit() }
            BlockingWork.start {
                ChildPipe.drain(output, errorOutput, abandoned: { child.state.withLock { $0.abandoned } }) { chunk, isError in
                    child.received(chunk, isError: isError)
                }
                output.closeReading()
                errorOutput.closeReading()
                child.drained.leave()
            }
            return child
        }

        /// Waits until the child has exited without collecting it (so its id stays its own while
        /// `stop` may still signal it), marks it exited, then collects its status.
        private func waitForExit() {
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
            state.withLock { $0.hasExited = true }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            let termination = ChildTermination(waitStatus: status)
            state.withLock { $0.termination = termination }
            exited.leave()
        }

        /// Output from the child: kept within the limits; standard output past its limit stops
        /// the child (what it says is not what was asked for).
        private func received(_ chunk: Data, isError: Bool) {
            let overflow = state.withLock { state -> Bool in
                if isError {
                    state.errorOutput.append(chunk.prefix(max(0, options.errorLimit - state.errorOutput.count)))
                    return false
                }
                guard state.output.count + chunk.count <= options.outputLimit else {
                    defer { state.overflowed = true }
                    return !state.overflowed
                }
                state.output.append(chunk)
                return false
            }
            if overflow { BlockingWork.start { self.stop(.outputLimit, grace: self.options.grace) } }
        }
    }
#endif
