import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandImport

/// The child processes the import renders in, run with programs we did not write: what they
/// inherit (descriptors, signal mask and dispositions), their deadline, a stop, and a pipe
/// that never ends.
@Suite(.tags(.needsTools)) struct RendererProcessTests {
    private struct Run: Sendable {
        var ending: RendererProcess.Ending
        var output: Data
        var overflowed: Bool
        var elapsed: Duration
    }

    private func run(
        _ program: String, _ arguments: [String], files: [Int32: Int32] = [:], keep: Int = 1 << 16, seconds: Double = 20,
        shouldStop: @escaping @Sendable () -> Bool = { false }
    ) async throws -> Run {
        let path = try Shell.locate(program)
        return try await BlockingWork.run { () -> Result<Run, RendererProcessError> in
            let output = BoundedBytes(limit: keep)
            var child = RendererProcess(executable: path, arguments: arguments)
            child.files = files
            child.outputs = [.init(descriptors: [1, 2], sink: output)]
            let start = ContinuousClock.now
            do throws(RendererProcessError) {
                let ending = try child.run(deadline: start + .milliseconds(Int(seconds * 1000)), shouldStop: shouldStop)
                return .success(
                    Run(ending: ending, output: output.bytes, overflowed: output.overflowed, elapsed: start.duration(to: .now)))
            } catch {
                return .failure(error)
            }
        }.get()
    }

    @Test func theChildSeesOnlyTheDescriptorsItIsGiven() async throws {
        // Descriptors of ours without close-on-exec, as a library might leave them, the second
        // at the lowest free number: below the number the child is given (40) unless this
        // process has 37 open (such a descriptor was inherited: only those above were closed).
        let leaked = open("/dev/null", O_RDONLY)
        defer { close(leaked) }
        let low = fcntl(leaked, F_DUPFD, 3)  // the lowest free number from 3 (never one in use)
        defer { close(low) }
        let given = open("/etc/hostname", O_RDONLY | O_CLOEXEC)
        defer { close(given) }
        let result = try await run("sh", ["-c", "ls /proc/$$/fd"], files: [40: given])
        #expect(result.ending == .exited(0))
        let descriptors = String(decoding: result.output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        #expect(Set(descriptors) == ["0", "1", "2", "40"], "\(descriptors); leaked \(leaked) and \(low)")
    }

    @Test func theChildStartsWithNothingBlockedAndEverySignalAtItsDefault() async throws {
        let path = try Shell.locate("grep")
        let status = try await BlockingWork.run { () -> Result<String, RendererProcessError> in
            // This thread blocks SIGTERM and SIGINT, as a caller's thread may, and the process
            // ignores SIGXFSZ, as newsstand does.
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTERM)
            sigaddset(&blocked, SIGINT)
            var old = sigset_t()
            pthread_sigmask(SIG_BLOCK, &blocked, &old)
            defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
            let previous = signal(SIGXFSZ, SIG_IGN)
            defer { signal(SIGXFSZ, previous) }
            let output = BoundedBytes(limit: 4096)
            var child = RendererProcess(executable: path, arguments: ["-E", "^Sig(Blk|Ign):", "/proc/self/status"])
            child.outputs = [.init(descriptors: [1], sink: output)]
            do throws(RendererProcessError) {
                _ = try child.run(deadline: .now + .seconds(20), shouldStop: { false })
                return .success(String(decoding: output.bytes, as: UTF8.self))
            } catch {
                return .failure(error)
            }
        }.get()
        let masks = Dictionary(
            status.split(separator: "\n").compactMap { line -> (String, UInt64)? in
                let parts = line.split(separator: "\t")
                guard parts.count == 2, let mask = UInt64(parts[1], radix: 16) else { return nil }
                return (String(parts[0]), mask)
            }, uniquingKeysWith: { first, _ in first })
        #expect(masks["SigBlk:"] == 0, "\(status)")
        // Signals 32 and 33 are glibc's own (thread cancellation, setuid across threads): its
        // posix_spawn leaves them ignored until the new program's glibc takes them.
        let glibcOwn: UInt64 = 1 << 31 | 1 << 32
        #expect(masks["SigIgn:"].map { $0 & ~glibcOwn } == 0, "\(status)")
    }

    @Test func aChildPastItsDeadlineIsKilledAndWaitedFor() async throws {
        // A duration no other process has: how the test finds it afterwards.
        let marker = "6000.\(UInt32.random(in: 1...UInt32.max))"
        let result = try await run("sleep", [marker], seconds: 0.5)
        #expect(result.ending == .timedOut)
        #expect(result.elapsed < .seconds(30), "killed at the deadline, not when it ended")
        #expect(ProcessTable.processes(containing: marker).isEmpty)
    }

    @Test func aStopKillsTheChildAtOnce() async throws {
        let start = ContinuousClock.now
        let result = try await run("sleep", ["600"], seconds: 600) { start.duration(to: .now) > .milliseconds(300) }
        #expect(result.ending == .stopped)
    }

    @Test func aChildWritingWithoutEndCostsNoMoreThanWhatIsKept() async throws {
        let result = try await run("yes", ["newsstand"], keep: 1000, seconds: 1)
        #expect(result.ending == .timedOut)
        #expect(result.output.count == 1000 && result.overflowed)
    }

    @Test func exitStatusesAndSignalsAreTold() async throws {
        #expect(try await run("sh", ["-c", "exit 7"]).ending == .exited(7))
        #expect(try await run("sh", ["-c", "kill -SEGV $$"]).ending == .signalled(SIGSEGV))
        await #expect(
            throws: RendererProcessError.cannotStart(path: "/nonexistent/newsstand", reason: "No such file or directory")
        ) {
            try await BlockingWork.run { () -> Result<RendererProcess.Ending, RendererProcessError> in
                do throws(RendererProcessError) {
                    return .success(
                        try RendererProcess(executable: "/nonexistent/newsstand", arguments: []).run(
                            deadline: .now + .seconds(5), shouldStop: { false }))
                } catch {
                    return .failure(error)
                }
            }.get()
        }
    }
}

/// The processes running now, read from /proc.
enum ProcessTable {
    /// The ids of the processes whose command line contains `text` (this one excepted).
    static func processes(containing text: String) -> [Int32] {
        let own = getpid()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap(Int32.init).filter { pid in
            guard pid != own, !isZombie(pid), let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
            else { return false }
            return String(decoding: line, as: UTF8.self).contains(text)
        }
    }

    /// The renderers (`newsstand _render-page <job>`) working on `source`, with `work` in their
    /// job when it is given.
    static func renderers(of source: URL, doing work: String? = nil) -> [Int32] {
        processes(containing: source.path).filter { pid in
            let line = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            let arguments = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.count == 3 && arguments[1] == PageRendererChild.command
                && work.map { arguments[2].contains($0) } ?? true
        }
    }

    /// The names of the process's threads (libvips names its own "libvips worker").
    static func threadNames(of pid: Int32) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap {
            try? String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
        }
    }

    /// Whether the process has ended and waits to be reaped (a container's init may never).
    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
    }
}
