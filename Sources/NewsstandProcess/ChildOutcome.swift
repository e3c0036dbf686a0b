#if os(Linux) || os(macOS)
    import Foundation
    import NewsstandCore

    /// How a child is run: its limits, its deadline and how long it may take to stop.
    public struct ChildOptions: Sendable {
        /// Bytes of standard output kept; more stops the child (`ChildStopReason.outputLimit`).
        public var outputLimit: Int
        /// Bytes of standard error kept; the rest is read and dropped.
        public var errorLimit: Int
        /// Seconds the child may run before it is stopped; nil for no limit.
        public var deadline: Double?
        /// Seconds between SIGTERM and SIGKILL when it is stopped.
        public var grace: Double
        /// The child's environment; nil for newsstand's own.
        public var environment: [String: String]?

        public init(
            outputLimit: Int = 1 << 20, errorLimit: Int = 1 << 16, deadline: Double? = nil, grace: Double = 10,
            environment: [String: String]? = nil
        ) {
            self.outputLimit = outputLimit
            self.errorLimit = errorLimit
            self.deadline = deadline
            self.grace = grace
            self.environment = environment
        }
    }

    /// How a child ended.
    public enum ChildTermination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)

        /// From a `waitpid` status (the `WIFEXITED` family are macros Swift does not import).
        init(waitStatus status: Int32) {
            let signal = status & 0x7F
            self = signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
        }

        /// The status a shell would report: the exit status, or 128 + the signal.
        public var status: Int32 {
            switch self {
            case .exited(let code): code
            case .signalled(let signal): 128 + signal
            }
        }
    }

    /// Why newsstand stopped a child before it ended by itself.
    public enum ChildStopReason: Sendable, Equatable {
        /// It ran past `ChildOptions.deadline`.
        case deadline
        /// It wrote more than `ChildOptions.outputLimit` bytes to standard output.
        case outputLimit
        /// Newsstand got this signal (SIGINT from a terminal's Ctrl-C, SIGTERM) and is ending
        /// (no caller sees an outcome with it: `ChildProcess.wait`).
        case interrupted(signal: Int32)
        /// The task that ran it was cancelled.
        case cancelled
    }

    /// What a child did.
    public struct ChildOutcome: Sendable, Equatable {
        public var termination: ChildTermination
        /// Standard output (at most `ChildOptions.outputLimit` bytes).
        public var output: Data
        /// Standard error (its first `ChildOptions.errorLimit` bytes).
        public var errorOutput: Data
        /// Why newsstand stopped it, when it did.
        public var stop: ChildStopReason?

        /// Standard error as text, trimmed.
        public var errorText: String {
            String(decoding: errorOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Why a child did not start.
    public enum ChildFailure: Error, Sendable, Equatable {
        /// `posix_spawnp` (or a pipe for its output) failed: the program and the system's reason
        /// (`ENOENT`: not installed, or not on `PATH`).
        case cannotStart(program: String, errno: Int32)
        /// The task was cancelled before the child started.
        case cancelled

        /// The system's words for a `cannotStart`.
        public var reason: String {
            switch self {
            case .cannotStart(_, let code): String(cString: strerror(code))
            case .cancelled: "cancelled"
            }
        }
    }
#endif
