import Foundation

#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    import SQLite3

    /// Applies a `FileProtection` class where data protection exists: iOS and its kin. Folders get
    /// the class through `FileManager` (a file made in a folder takes the folder's class, which
    /// covers content unpacked, part files and covers); SQLite's own files (`library.sqlite`,
    /// `-wal`, `-shm`) through Apple's open flags, which apply it to each file SQLite makes.
    extension FileProtection {
        /// Whether the platform enforces the classes.
        static let isEnforced = true

        /// Sets this class on the folder or file at `url`.
        func apply(to url: URL) throws {
            try FileManager.default.setAttributes([.protectionKey: systemType], ofItemAtPath: url.path)
        }

        /// The `sqlite3_open_v2` flag for this class.
        var sqliteOpenFlags: Int32 {
            switch self {
            case .none: SQLITE_OPEN_FILEPROTECTION_NONE
            case .complete: SQLITE_OPEN_FILEPROTECTION_COMPLETE
            case .completeUnlessOpen: SQLITE_OPEN_FILEPROTECTION_COMPLETEUNLESSOPEN
            case .completeUntilFirstUserAuthentication: SQLITE_OPEN_FILEPROTECTION_COMPLETEUNTILFIRSTUSERAUTHENTICATION
            }
        }

        private var systemType: FileProtectionType {
            switch self {
            case .none: .none
            case .complete: .complete
            case .completeUnlessOpen: .completeUnlessOpen
            case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
            }
        }
    }
#else
    /// Where data protection does not exist (Linux, macOS) the configured class is accepted and
    /// nothing is set.
    extension FileProtection {
        /// Whether the platform enforces the classes.
        static let isEnforced = false

        /// Does nothing: there are no protection classes to set.
        func apply(to url: URL) throws {}

        /// No flag: SQLite has no protection classes here.
        var sqliteOpenFlags: Int32 { 0 }
    }
#endif
