import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One process as Linux's `/proc/<pid>/stat` describes it: how the harness tells which
/// processes a test started, and whether they still run, without going by their command lines
/// (nginx's processes rename themselves).
public struct ProcessStatus: Equatable, Sendable {
    public var pid: pid_t
    /// Its name (`comm`: what it calls itself, at most 15 bytes: `nginx` for nginx's worker, whose
    /// command line says `nginx: worker process`).
    public var name: String
    /// `R`, `S`, `D`, `T`, … or `Z`, a zombie: ended, only not reaped yet (a container's PID 1
    /// may never reap what is re-parented to it).
    public var state: Character
    public var parent: pid_t
    public var group: pid_t
    public var session: pid_t
    /// When it started, in clock ticks after boot: with `pid`, it names one process, though the
    /// pid be reused.
    public var startTime: UInt64

    /// Whether it has ended (a zombie has).
    public var hasEnded: Bool { state == "Z" || state == "X" }

    /// Whether this very process (the same pid and start) exists and has not ended.
    public var isRunning: Bool {
        guard let now = ProcessStatus(pid: pid) else { return false }
        return now.startTime == startTime && !now.hasEnded
    }

    /// `pid`'s status now, nil when there is no such process.
    public init?(pid: pid_t) {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        // "pid (name) state ppid pgrp session …": the name may hold spaces and parentheses.
        guard let nameStart = stat.firstIndex(of: "("), let nameEnd = stat.range(of: ") ", options: .backwards),
            nameStart < nameEnd.lowerBound
        else { return nil }
        let fields = stat[nameEnd.upperBound...].split(separator: " ")
        // fields[0] is proc(5)'s field 3 (state), so field n is fields[n - 3]; starttime is 22.
        guard fields.count > 19, let state = fields[0].first, let parent = pid_t(fields[1]), let group = pid_t(fields[2]),
            let session = pid_t(fields[3]), let startTime = UInt64(fields[19])
        else { return nil }
        self.pid = pid
        name = String(stat[stat.index(after: nameStart)..<nameEnd.lowerBound])
        self.state = state
        self.parent = parent
        self.group = group
        self.session = session
        self.startTime = startTime
    }

    /// Every process now.
    public static func all() -> [ProcessStatus] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { pid_t($0) }.compactMap { ProcessStatus(pid: $0) }
    }

    /// `pid` and its descendants now (its children, theirs, …), `pid` first.
    public static func tree(of pid: pid_t) -> [ProcessStatus] {
        let everyone = all()
        guard let root = everyone.first(where: { $0.pid == pid }) else { return [] }
        var tree = [root]
        var next = 0
        while next < tree.count {
            let parent = tree[next].pid
            tree += everyone.filter { $0.parent == parent && $0.pid != parent }
            next += 1
        }
        return tree
    }

    /// The children of `pid`'s main thread, in the order they became its children
    /// (`/proc/<pid>/task/<pid>/children`).
    public static func children(of pid: pid_t) -> [pid_t] {
        let list = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return list.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}
