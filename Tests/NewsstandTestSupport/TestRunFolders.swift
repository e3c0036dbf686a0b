import Foundation

/// The folders test processes keep their temporary folders in: `newsstand-tests-<pid>` in the
/// system's temporary folder, one per process. A process removes its own at exit; one that was
/// killed (SIGKILL, a crash) cannot, so the next test process removes every such folder whose
/// process is gone.
public enum TestRunFolders {
    /// The name's start; the process id follows.
    static let prefix = "newsstand-tests-"

    /// This process's folder.
    public static let own = folder(of: getpid())

    /// The folder a test process with id `pid` keeps.
    public static func folder(of pid: pid_t, in parent: URL = FileManager.default.temporaryDirectory) -> URL {
        parent.appendingPathComponent("\(prefix)\(pid)")
    }

    /// Removes the folders in `parent` of test processes that no longer run. Only names that are
    /// exactly the prefix and a process id count; a link is removed as a link (what it points at
    /// is left); a folder whose id now belongs to another process is kept, which errs on the
    /// side of keeping a live run's files. Returns the paths removed.
    @discardableResult
    public static func removeDeadRuns(in parent: URL = FileManager.default.temporaryDirectory) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        var removed: [String] = []
        for name in names where name.hasPrefix(prefix) {
            let digits = name.dropFirst(prefix.count)
            guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let pid = pid_t(digits),
                pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            let path = parent.appendingPathComponent(name).path
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed.append(path) }
        }
        return removed
    }
}
