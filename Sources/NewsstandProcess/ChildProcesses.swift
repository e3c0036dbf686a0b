#if os(Linux) || os(macOS)
    import Dispatch
    import Foundation
    import NewsstandCore

    /// The children running now, and what SIGINT and SIGTERM do once newsstand has started one:
    /// stop every running child (`ChildProcess.stop`: SIGTERM, then SIGKILL after its grace
    /// period), wait for each, start no new one, then end newsstand as the signal would have
    /// (its default action, so a shell sees 130 for Ctrl-C). Without children that is what the
    /// signal does anyway; with them, none outlives newsstand to go on writing. (After SwiftPM's
    /// `Cancellator`.)
    enum ChildProcesses {
        private struct State {
            var running: [pid_t: ChildProcess] = [:]
            /// The signal newsstand is stopping on, once one came.
            var stopping: Int32?
            var sources: [any DispatchSourceSignal] = []
            /// What to write on standard error before ending on a signal (`InterruptionNote`).
            var note: String?
        }

        private static let state = Locked(State())
        private static let queue = DispatchQueue(label: "newsstand.child-processes.signals")
        /// The grace period a child gets when newsstand stops on a signal.
        static let signalGrace: Double = 10

        /// Starts a child with `spawn` and records it, unless newsstand is stopping: both under
        /// one lock, so a signal either finds the child or is seen before it starts. While
        /// stopping, no child starts: the caller is held until the process ends.
        static func start(_ spawn: () throws(ChildFailure) -> ChildProcess) -> Result<ChildProcess, ChildFailure> {
            installHandlers()
            let started = state.withLock { state -> Result<ChildProcess, ChildFailure>? in
                guard state.stopping == nil else { return nil }
                do throws(ChildFailure) {
                    let child = try spawn()
                    state.running[child.pid] = child
                    return .success(child)
                } catch {
                    return .failure(error)
                }
            }
            guard let started else {
                holdWhileStopping()
                return .failure(.cancelled)  // not reached: the process ends by its signal
            }
            return started
        }

        /// Once newsstand is stopping on a signal, holds the calling thread until the process
        /// ends by it: code that waited for a child the signal stopped must not go on (and
        /// print an error or exit with a status of its own) while the other children stop.
        static func holdWhileStopping() {
            guard state.withLock({ $0.stopping != nil }) else { return }
            while true { sleep(60) }
        }

        /// Forgets a child that has exited.
        static func finished(_ pid: pid_t) {
            state.withLock { _ = $0.running.removeValue(forKey: pid) }
        }

        /// Sets what newsstand writes on standard error when a signal stops it (nil: nothing),
        /// taking over SIGINT and SIGTERM now, before any child starts.
        static func setNote(_ note: String?) {
            installHandlers()
            state.withLock { $0.note = note }
        }

        /// SIGINT and SIGTERM through Dispatch signal sources (their default action is set
        /// aside meanwhile: `interrupted` brings it back to end the process).
        private static func installHandlers() {
            state.withLock { state in
                guard state.sources.isEmpty else { return }
                for signalNumber in [SIGINT, SIGTERM] {
                    signal(signalNumber, SIG_IGN)
                    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
                    source.setEventHandler { interrupted(by: signalNumber) }
                    source.resume()
                    state.sources.append(source)
                }
            }
        }

        /// Stops every child, then ends the process by `signalNumber`'s default action.
        private static func interrupted(by signalNumber: Int32) {
            let (children, note) = state.withLock { state -> ([ChildProcess], String?) in
                guard state.stopping == nil else { return ([], nil) }
                state.stopping = signalNumber
                return (Array(state.running.values), state.note)
            }
            BlockingWork.start {
                let group = DispatchGroup()
                for child in children {
                    group.enter()
                    BlockingWork.start {
                        child.stop(.interrupted(signal: signalNumber), grace: signalGrace)
                        group.leave()
                    }
                }
                group.wait()
                if let note { writeToStandardError("\n" + note + "\n") }
                endProcess(by: signalNumber)
            }
        }

        /// Writes `text` whole to standard error (a short write is retried).
        private static func writeToStandardError(_ text: String) {
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                bytes = bytes.dropFirst(written)
            }
        }

        /// The signal's default action on this thread (unblocked here), so the process ends as
        /// it would have without us; `_exit` if it somehow does not.
        private static func endProcess(by signalNumber: Int32) -> Never {
            signal(signalNumber, SIG_DFL)
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, signalNumber)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            raise(signalNumber)
            _exit(128 + signalNumber)
        }
    }
#endif
