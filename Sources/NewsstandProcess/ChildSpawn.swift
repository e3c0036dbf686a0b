#if os(Linux) || os(macOS)
    import Foundation
    import NewsstandCore

    /// `posix_spawnp` as newsstand starts every child: standard input from `/dev/null`, its
    /// output to the pipes given, no signal blocked, every signal's action the default (a
    /// thread of ours may block a dozen, and ignoring SIGINT for a signal source would be
    /// inherited), and a process group of its own (`ChildProcess` says why).
    enum ChildSpawn {
        static func spawn(
            _ program: String, _ arguments: [String], environment: [String: String]?, standardOutput: Int32,
            standardError: Int32
        ) throws(ChildFailure) -> pid_t {
            #if canImport(Darwin)
                var actions: posix_spawn_file_actions_t? = nil
                var attributes: posix_spawnattr_t? = nil
            #else
                var actions = posix_spawn_file_actions_t()
                var attributes = posix_spawnattr_t()
            #endif
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
            posix_spawn_file_actions_adddup2(&actions, standardError, 2)
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            posix_spawnattr_setsigmask(&attributes, &none)
            var every = sigset_t()
            sigfillset(&every)
            posix_spawnattr_setsigdefault(&attributes, &every)
            posix_spawnattr_setpgroup(&attributes, 0)
            var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP)
            #if canImport(Darwin)
                flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
            #endif
            posix_spawnattr_setflags(&attributes, Int16(flags))

            let argv = ([program] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { values in
                values.map { strdup("\($0.key)=\($0.value)") } + [nil]
            }
            defer { for pointer in envp ?? [] { free(pointer) } }
            var pid: pid_t = 0
            let code: Int32 =
                if let envp {
                    posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
                } else {
                    posix_spawnp(&pid, program, &actions, &attributes, argv, environ)
                }
            guard code == 0 else { throw .cannotStart(program: program, errno: code) }
            return pid
        }
    }
#endif
