import Foundation
import NewsstandCore
import NewsstandReader

#if os(Linux)
    import Glibc

    /// Every Linux-only line of the aria2 engine (ARCHITECTURE.md, "Platform islands"): starting
    /// the daemon detached, and asking `/proc` what runs, what it was started with and which
    /// process holds a listening socket. The rest of the engine is plain POSIX and Foundation.
    enum Aria2Platform {
        /// Whether aria2 can run here.
        static let isSupported = true

        /// Starts `executable` with `arguments` so that it outlives this process: a session of
        /// its own (no controlling terminal, no SIGHUP or Ctrl-C from ours), standard input and
        /// output on /dev/null, no other descriptor of ours, an empty signal mask and every
        /// signal at its default (a thread of ours may block or ignore some), in `/`.
        static func spawnDetached(_ executable: String, _ arguments: [String]) throws(Aria2Error) -> Int32 {
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
            posix_spawn_file_actions_init(&actions)
            posix_spawnattr_init(&attributes)
            defer {
                posix_spawn_file_actions_destroy(&actions)
                posix_spawnattr_destroy(&attributes)
            }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            closeInheritedDescriptors(&actions)
            if let changeDirectory = gnuFunction("posix_spawn_file_actions_addchdir_np", as: AddChangeDirectory.self) {
                _ = changeDirectory(&actions, "/")
            }
            var none = sigset_t()
            var all = sigset_t()
            sigemptyset(&none)
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(setSession | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var pid: pid_t = 0
            let code = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            guard code == 0 else { throw .cannotStart(executable: executable, code: code) }
            return pid
        }

        /// Sets `pid`'s soft limit on the size of a file it writes (`RLIMIT_FSIZE`) to `bytes`
        /// (nil: none), its hard limit unchanged; whether it was set.
        static func setFileSizeLimit(of pid: Int32, to bytes: Int64?) -> Bool {
            // glibc's `prlimit` (a GNU function the Swift overlay does not import).
            guard let prlimit = gnuFunction("prlimit", as: ProcessLimit.self) else {
                errno = ENOSYS
                return false
            }
            var current = rlimit()
            let resource = Int32(RLIMIT_FSIZE.rawValue)
            guard prlimit(pid, resource, nil, &current) == 0 else { return false }
            var wanted = current
            wanted.rlim_cur = bytes.map { min(rlim_t($0), current.rlim_max) } ?? current.rlim_max
            return prlimit(pid, resource, &wanted, nil) == 0
        }

        /// The arguments `pid` was started with, argv[0] first; nil when there is no such process
        /// (or it is not ours to read).
        static func commandLine(of pid: Int32) -> [String]? {
            guard pid > 0, let file = try? OpenFile.open(URL(fileURLWithPath: "/proc/\(pid)/cmdline")),
                let bytes = try? file.readAll(limit: 256 << 10), !bytes.isEmpty
            else { return nil }
            return bytes.split(separator: 0, omittingEmptySubsequences: false).dropLast().map {
                String(decoding: $0, as: UTF8.self)
            }
        }

        /// Every process whose command line holds `argument` exactly.
        static func processes(withArgument argument: String) -> [Int32] {
            let entries = (try? OpenFolder.open(URL(fileURLWithPath: "/proc")).entries()) ?? []
            return entries.compactMap { entry in
                guard let pid = entry.name.flatMap({ Int32($0) }), commandLine(of: pid)?.contains(argument) == true else {
                    return nil
                }
                return pid
            }
        }

        /// Whether `pid` runs (an exited process waiting to be reaped, a zombie, does not).
        static func isRunning(_ pid: Int32) -> Bool {
            guard pid > 0, let file = try? OpenFile.open(URL(fileURLWithPath: "/proc/\(pid)/stat")),
                let bytes = try? file.readAll(limit: 64 << 10)
            else { return false }
            // "pid (comm) S …": the state follows the last ')', as comm may hold anything.
            guard let close = bytes.lastIndex(of: UInt8(ascii: ")")), close + 2 < bytes.endIndex else { return false }
            return bytes[close + 2] != UInt8(ascii: "Z") && bytes[close + 2] != UInt8(ascii: "X")
        }

        /// The inode of the socket listening on 127.0.0.1:`port`, if one does (`/proc/net/tcp`).
        static func loopbackListener(port: Int) -> UInt64? {
            guard let file = try? OpenFile.open(URL(fileURLWithPath: "/proc/net/tcp")),
                let table = try? file.readAll(limit: 64 << 20)
            else { return nil }
            // Addresses are the kernel's 32-bit value in hex, in this machine's byte order.
            let loopback = String(format: "%08X:%04X", inet_addr("127.0.0.1"), port)
            for line in String(decoding: table, as: UTF8.self).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 9, fields[1] == loopback, fields[3] == "0A" else { continue }
                return UInt64(fields[9])
            }
            return nil
        }

        /// Whether `pid` has the socket `inode` open.
        static func holdsSocket(_ pid: Int32, inode: UInt64) -> Bool {
            guard let descriptors = try? OpenFolder.open(URL(fileURLWithPath: "/proc/\(pid)/fd")) else { return false }
            let target = "socket:[\(inode)]"
            return ((try? descriptors.entries()) ?? []).contains { entry in
                entry.name.map { descriptors.linkTarget(of: $0) == target } ?? false
            }
        }

        /// A new TCP socket, closed on exec.
        static func streamSocket() -> Int32 {
            socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        }

        /// `send` without SIGPIPE when the other end has gone.
        static func send(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
            Glibc.send(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
        }

        // MARK: glibc's GNU extensions

        // glibc declares these only under _GNU_SOURCE, which Swift's Glibc module does not
        // define; they have been in glibc since 2.26 (setsid), 2.29 (chdir) and 2.34 (closefrom).
        // The flag's value is glibc's ABI (spawn.h).
        private static let setSession: Int32 = 0x80  // POSIX_SPAWN_SETSID
        private typealias AddChangeDirectory =
            @convention(c) (
                UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
            ) -> Int32
        private typealias ProcessLimit =
            @convention(c) (pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?) -> Int32
        private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

        private static func gnuFunction<T>(_ name: String, as type: T.Type) -> T? {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }  // RTLD_DEFAULT
            return unsafeBitCast(symbol, to: type)
        }

        /// Closes every descriptor above 2 in the child: the app's own may lack `O_CLOEXEC`, and
        /// a daemon holding them (a lock, a socket) would keep them for as long as it runs.
        private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
            if let closeFrom = gnuFunction("posix_spawn_file_actions_addclosefrom_np", as: AddCloseFrom.self) {
                _ = closeFrom(&actions, 3)
                return
            }
            // Older glibc: the descriptors open now that exec would not close (closing one that is
            // not open would fail the spawn, and the listing's own is closed by then).
            let open = (try? OpenFolder.open(URL(fileURLWithPath: "/proc/self/fd")).entries()) ?? []
            for descriptor in open.compactMap({ $0.name.flatMap { Int32($0) } }) where descriptor > 2 {
                let flags = fcntl(descriptor, F_GETFD)
                if flags >= 0, flags & FD_CLOEXEC == 0 { posix_spawn_file_actions_addclose(&actions, descriptor) }
            }
        }
    }
#else
    /// aria2 is the Linux engine: on other platforms nothing of it runs (Apple platforms use a
    /// background URLSession), and every call answers so.
    enum Aria2Platform {
        static let isSupported = false
        static func spawnDetached(_ executable: String, _ arguments: [String]) throws(Aria2Error) -> Int32 {
            throw .notSupported
        }
        static func setFileSizeLimit(of pid: Int32, to bytes: Int64?) -> Bool { false }
        static func commandLine(of pid: Int32) -> [String]? { nil }
        static func processes(withArgument argument: String) -> [Int32] { [] }
        static func isRunning(_ pid: Int32) -> Bool { false }
        static func loopbackListener(port: Int) -> UInt64? { nil }
        static func holdsSocket(_ pid: Int32, inode: UInt64) -> Bool { false }
        static func streamSocket() -> Int32 { -1 }
        static func send(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { -1 }
    }
#endif
