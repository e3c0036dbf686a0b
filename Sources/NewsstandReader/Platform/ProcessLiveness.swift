import Foundation

#if os(Linux)
    /// Whether the process that recorded a claim still runs. Linux: `kill(pid, 0)` finds it (or is
    /// refused it, which also means it exists), and `/proc/<pid>/stat` does not call it a zombie:
    /// a killed child that nobody has reaped yet still has its pid, and is not running.
    enum ProcessLiveness {
        static func isRunning(_ pid: Int32) -> Bool {
            guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let end = stat.lastIndex(of: ")")
            else { return true }
            let state = stat[stat.index(after: end)...].drop { $0 == " " }.first
            return state != "Z" && state != "X"
        }
    }
#else
    /// Whether the process that recorded a claim still runs: `kill(pid, 0)` finds it, or is
    /// refused it (a sandboxed app may not signal its extension: the process exists). A zombie
    /// counts as running here; only its parent can reap it, and an app's processes are the system's.
    enum ProcessLiveness {
        static func isRunning(_ pid: Int32) -> Bool {
            pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
        }
    }
#endif
