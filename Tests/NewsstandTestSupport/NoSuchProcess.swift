import Foundation

/// A pid that no process has or can have, for tests of "the writer has exited": the kernel
/// gives pids below `/proc/sys/kernel/pid_max`, so that number itself is never a process
/// (`kill(pid, 0)` fails with ESRCH), without starting and reaping a child to get one.
public enum NoSuchProcess {
    public static var pid: Int32 {
        get throws {
            let text = try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8)
            guard let max = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)), max > 1 else {
                throw TestFailure("/proc/sys/kernel/pid_max says '\(text)'")
            }
            return max
        }
    }
}
