import Foundation
import NewsstandCore
import NewsstandReader

/// Telling this folder's daemon from any other process, and ending it: a pid from a file may
/// name any process by now, so nothing is signalled before its command line is seen to be
/// `aria2c --conf-path=<this folder's settings>`.
extension Aria2Daemon {
    /// Whether `pid` is this folder's aria2c (so it may be signalled: a pid from a file may name
    /// any process by now).
    func isOurs(_ pid: Int32) -> Bool {
        Self.isRunning(pid) && Aria2Platform.commandLine(of: pid)?.contains("--conf-path=" + settingsPath) == true
    }

    /// The daemons this process started and has not reaped: only these are ever waited for
    /// (`waitpid` on another child would take its exit status from whoever watches it).
    static let children = Locked(Set<Int32>())

    /// Whether `pid` runs; a child of ours that exited is reaped on the way.
    static func isRunning(_ pid: Int32) -> Bool {
        if children.withLock({ $0.contains(pid) }) {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid {
                children.withLock { _ = $0.remove(pid) }
                return false
            }
        }
        return Aria2Platform.isRunning(pid)
    }

    /// Ends `pid` if it is this folder's aria2c: SIGTERM (aria2 saves its session), then
    /// SIGKILL after the grace period.
    func terminate(_ pid: Int32) {
        guard isOurs(pid) else { return }
        kill(pid, SIGTERM)
        if waitForExit(pid, seconds: configuration.shutdownGrace) { return }
        if isOurs(pid) { kill(pid, SIGKILL) }
        _ = waitForExit(pid, seconds: configuration.shutdownGrace)
    }

    /// Waits up to `seconds` for `pid` to end (reaping it when it is our child); whether it did.
    func waitForExit(_ pid: Int32, seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if !Self.isRunning(pid) { return true }
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
    }
}
