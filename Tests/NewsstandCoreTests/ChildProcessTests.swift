import Foundation
import NewsstandCore
import NewsstandProcess
import NewsstandTestSupport
import Testing

/// `ChildProcess`, the one way newsstand runs a program: a clean signal state, a process group of
/// its own, output within limits, and stopped (SIGTERM, then SIGKILL) by a deadline, too much
/// output or a cancelled task, its whole group with it. (What SIGINT does to newsstand and its
/// child is tested through the executable: `PublishInterruptionTests`.)
@Suite(.tags(.needsTools)) struct ChildProcessTests {
    private func run(_ program: String, _ arguments: [String], _ options: ChildOptions = ChildOptions()) throws -> ChildOutcome {
        try ChildProcess.run(program, arguments, options: options).get()
    }

    /// Started from a thread that blocks signals (as Dispatch's and the runtime's threads do) in
    /// a process that ignores one: the child blocks and ignores none.
    @Test func aChildStartsWithNoSignalBlockedOrIgnored() throws {
        let previous = signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, previous) }
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in [SIGINT, SIGTERM, SIGUSR1, SIGHUP, SIGALRM] { sigaddset(&blocked, number) }
        var old = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        let outcome = try run("grep", ["-E", "^Sig(Blk|Ign):", "/proc/self/status"])
        #expect(outcome.termination == .exited(0), "\(outcome.errorText)")
        let masks = String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").compactMap { line in
            UInt64(line.split(separator: "\t").last ?? "", radix: 16)
        }
        #expect(masks.count == 2, "\(outcome.output)")
        #expect(masks.first == 0, "blocked: \(masks)")
        // Signals 1 to 31; 32 and 33 are glibc's own (threads, set*id), which no program may use.
        #expect(masks.last.map { $0 & 0x7FFF_FFFF } == 0, "ignored: \(masks)")
    }

    @Test func aChildLeadsAProcessGroupOfItsOwnAndReadsNothing() throws {
        let outcome = try run("python3", ["-c", "import os, sys; print(os.getpgrp() == os.getpid(), repr(sys.stdin.read()))"])
        #expect(String(decoding: outcome.output, as: UTF8.self) == "True ''\n")
    }

    @Test func outputAndErrorsAreKeptWithinTheirLimits() throws {
        let outcome = try run(
            "sh", ["-c", "printf 'out'; printf 'e%.0s' $(seq 1 5000) >&2; exit 3"], ChildOptions(errorLimit: 100))
        #expect(outcome.termination == .exited(3))
        #expect(outcome.output == Data("out".utf8))
        #expect(outcome.errorOutput == Data(repeating: UInt8(ascii: "e"), count: 100))
        #expect(outcome.stop == nil)

        let endless = try run("yes", [], ChildOptions(outputLimit: 4096, grace: 5))
        #expect(endless.stop == .outputLimit)
        #expect(endless.output.count <= 4096)
        #expect(endless.termination == .signalled(SIGTERM) || endless.termination == .signalled(SIGPIPE))
    }

    @Test func aDeadlineStopsTheChildWithSIGTERM() throws {
        let outcome = try run("sleep", ["60"], ChildOptions(deadline: 0.2, grace: 5))
        #expect(outcome.stop == .deadline)
        #expect(outcome.termination == .signalled(SIGTERM))
    }

    /// A child that ignores SIGTERM gets SIGKILL after the grace period.
    @Test func aChildThatIgnoresSIGTERMIsKilledAfterTheGracePeriod() throws {
        let outcome = try run(
            "python3",
            [
                "-c",
                "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); print('ready', flush=True); time.sleep(60)",
            ],
            ChildOptions(deadline: 1, grace: 0.5))
        #expect(outcome.stop == .deadline)
        #expect(outcome.termination == .signalled(SIGKILL))
    }

    /// The signals go to the child's whole group: a grandchild does not outlive it.
    @Test func stoppingAChildStopsWhatItStarted() throws {
        let outcome = try run("sh", ["-c", "sleep 60 & echo $!; wait"], ChildOptions(deadline: 0.5, grace: 5))
        #expect(outcome.stop == .deadline)
        let grandchild = try #require(
            Int32(String(decoding: outcome.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        // Re-parented to init and reaped there once killed; polled, as init reaps when it can.
        #expect(BackgroundProcess.poll(timeout: 10) { kill(grandchild, 0) != 0 }, "sleep \(grandchild) outlived its parent")
    }

    @Test func cancellingTheTaskStopsTheChild() async throws {
        let marker = try Shell.temporaryFolder("child").appendingPathComponent("started")
        let task = Task {
            await ChildProcess.run("sh", ["-c", "echo > '\(marker.path)'; exec sleep 60"], options: ChildOptions(grace: 5))
        }
        #expect(BackgroundProcess.poll(timeout: 30) { FileManager.default.fileExists(atPath: marker.path) })
        task.cancel()
        let outcome = try await task.value.get()
        #expect(outcome.stop == .cancelled)
        #expect(outcome.termination == .signalled(SIGTERM))
    }

    @Test func aProgramThatIsNotThereDoesNotStart() {
        #expect(throws: ChildFailure.cannotStart(program: "newsstand-no-such-program", errno: ENOENT)) {
            try ChildProcess.run("newsstand-no-such-program", []).get()
        }
    }
}
