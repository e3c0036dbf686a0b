import CChildProcess
import Foundation

/// A program run as a child process with exactly the descriptors it is given, nothing blocked
/// and every signal at its default (whatever this process inherited or set), and a deadline:
/// past it, or as soon as `shouldStop` says so, the child is killed (SIGKILL) and waited for.
/// What it writes to its pipes goes to their sinks as it comes, so it never blocks on a full
/// pipe and keeps only what the sinks keep. Blocking: run it on a thread of its own.
struct RendererProcess {
    /// How a run ended.
    enum Ending: Equatable, Sendable {
        /// The child exited with this status.
        case exited(Int32)
        /// A signal ended it (not ours).
        case signalled(Int32)
        /// It was still running at the deadline and was killed.
        case timedOut
        /// `shouldStop` said to stop, and it was killed.
        case stopped
    }

    /// A pipe from the child: the numbers it writes it as (1 and 2 may share one) and where
    /// its bytes go.
    struct Output {
        var descriptors: [Int32]
        var sink: any ChildOutputSink
    }

    /// The program's path and its arguments (after the program's name).
    let executable: String
    let arguments: [String]
    /// Descriptors of this process the child gets, by the number it sees them as (3 and up;
    /// it sees nothing else but /dev/null as its standard input and the pipes).
    var files: [Int32: Int32] = [:]
    var outputs: [Output] = []

    /// Starts the child and waits for it.
    func run(deadline: ContinuousClock.Instant, shouldStop: () -> Bool) throws(RendererProcessError) -> Ending {
        var readEnds: [Int32] = []
        defer { for end in readEnds { close(end) } }
        let pid = try spawn(readEnds: &readEnds)
        if let ending = read(readEnds, deadline: deadline, shouldStop: shouldStop, pid: pid) {
            return ending
        }
        return reap(pid, deadline: deadline, shouldStop: shouldStop)
    }

    /// Makes the pipes and starts the child; `readEnds` gets this side of each pipe.
    private func spawn(readEnds: inout [Int32]) throws(RendererProcessError) -> pid_t {
        // Every descriptor handed over is first copied above any number the child gets
        // (close-on-exec, so no other child inherits it), so that putting one in its place
        // never overwrites another still to be moved.
        var copies: [Int32] = []
        defer { for copy in copies { close(copy) } }
        var moves: [(from: Int32, to: Int32)] = []
        for (number, descriptor) in files {
            let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 64)
            guard copy >= 0 else { throw .cannotStart(path: executable, reason: String(cString: strerror(errno))) }
            copies.append(copy)
            moves.append((copy, number))
        }
        for output in outputs {
            var ends: [Int32] = [-1, -1]
            guard nchild_pipe(&ends) == 0 else { throw .cannotStart(path: executable, reason: String(cString: strerror(errno))) }
            readEnds.append(ends[0])
            let copy = fcntl(ends[1], F_DUPFD_CLOEXEC, 64)
            let failure = errno
            close(ends[1])
            guard copy >= 0 else { throw .cannotStart(path: executable, reason: String(cString: strerror(failure))) }
            copies.append(copy)
            moves += output.descriptors.map { (copy, $0) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for move in moves { posix_spawn_file_actions_adddup2(&actions, move.from, move.to) }
        // Every other descriptor is closed: those above the highest given by `closefrom`, those
        // between 3 and it one by one (a descriptor there that is not open is no error).
        let highest = moves.map(\.to).max() ?? 2
        let given = Set(moves.map(\.to))
        for number in Int32(3)..<max(3, highest) where !given.contains(number) {
            posix_spawn_file_actions_addclose(&actions, number)
        }
        nchild_close_from(&actions, highest + 1)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var nothing = sigset_t()
        sigemptyset(&nothing)
        posix_spawnattr_setsigmask(&attributes, &nothing)
        var everything = sigset_t()
        sigfillset(&everything)
        sigdelset(&everything, SIGKILL)
        sigdelset(&everything, SIGSTOP)
        posix_spawnattr_setsigdefault(&attributes, &everything)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard status == 0 else { throw .cannotStart(path: executable, reason: String(cString: strerror(status))) }
        return pid
    }

    /// Reads the pipes until the child has closed them all (it has ended, or is ending);
    /// the ending when the deadline or a stop came first (the child killed and reaped).
    private func read(_ readEnds: [Int32], deadline: ContinuousClock.Instant, shouldStop: () -> Bool, pid: pid_t) -> Ending? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
        defer { buffer.deallocate() }
        var open = Array(readEnds.indices)
        while !open.isEmpty {
            if let ending = checkStop(pid, deadline: deadline, shouldStop: shouldStop) { return ending }
            var polled = open.map { pollfd(fd: readEnds[$0], events: Int16(POLLIN), revents: 0) }
            // A tenth of a second at most, so that a stop is noticed soon.
            let wait = min(100, max(1, Self.milliseconds(until: deadline)))
            guard poll(&polled, nfds_t(polled.count), Int32(wait)) >= 0 || errno == EINTR else { break }
            for (slot, entry) in Array(zip(open, polled)) where entry.revents != 0 {
                let count = Foundation.read(readEnds[slot], buffer.baseAddress, buffer.count)
                if count > 0 {
                    outputs[slot].sink.receive(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    open.removeAll { $0 == slot }
                }
            }
        }
        return nil
    }

    /// Waits for the child to be gone after it closed its pipes, still within the deadline.
    private func reap(_ pid: pid_t, deadline: ContinuousClock.Instant, shouldStop: () -> Bool) -> Ending {
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return Self.ending(status) }
            if result < 0, errno != EINTR { return .exited(-1) }
            if let ending = checkStop(pid, deadline: deadline, shouldStop: shouldStop) { return ending }
            usleep(2_000)
        }
    }

    /// Kills and reaps the child when the deadline passed or a stop was asked for.
    private func checkStop(_ pid: pid_t, deadline: ContinuousClock.Instant, shouldStop: () -> Bool) -> Ending? {
        let ending: Ending
        if shouldStop() {
            ending = .stopped
        } else if ContinuousClock.now >= deadline {
            ending = .timedOut
        } else {
            return nil
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        return ending
    }

    private static func milliseconds(until deadline: ContinuousClock.Instant) -> Int {
        let left = ContinuousClock.now.duration(to: deadline).components
        return Int(min(left.seconds, 86_400_000)) * 1000 + Int(left.attoseconds / 1_000_000_000_000_000)
    }

    /// A wait status, decoded as the W* macros (which Swift cannot import) do.
    private static func ending(_ status: Int32) -> Ending {
        let signal = status & 0x7F
        return signal == 0 ? .exited((status >> 8) & 0xFF) : .signalled(signal)
    }
}

/// Where the bytes of a child's pipe go: kept, counted or read line by line. Used on the one
/// thread that waits for the child.
protocol ChildOutputSink: AnyObject {
    func receive(_ bytes: UnsafeRawBufferPointer)
}

/// Why a child could not be run.
enum RendererProcessError: Error, Equatable, Sendable {
    /// The pipes or the process could not be made (`reason`: the system's).
    case cannotStart(path: String, reason: String)
}
