import Foundation

#if canImport(os)
    import os

    /// The system log for `LibraryLog.system`: `os.Logger` on Apple platforms (iOS 14, macOS 11),
    /// each level at its `OSLogType`, debug included (the system keeps debug lines only while
    /// someone asks for them, in Console or `log stream --level debug`). Messages are public: the
    /// library has already cut URL secrets out of them (`LibraryLog`), and what remains (issue
    /// names, paths in the app's container, HTTP statuses) is what a background transfer is
    /// debugged with.
    enum SystemLog {
        static var log: LibraryLog {
            LibraryLog(minimumLevel: .debug) { level, message in
                let type: OSLogType
                switch level {
                case .debug: type = .debug
                case .info: type = .info
                case .notice: type = .default
                case .error: type = .error
                }
                // Made per line rather than kept in a static: nothing then depends on whether the
                // SDK declares `Logger` Sendable.
                Logger(subsystem: "Newsstand", category: "reader").log(level: type, "\(message, privacy: .public)")
            }
        }
    }
#else
    /// The system log for `LibraryLog.system`: Linux has no system log a library writes to on its
    /// own, so it keeps nothing; a program passes its own (`LibraryLog.lines`).
    enum SystemLog {
        static var log: LibraryLog { .silent }
    }
#endif
