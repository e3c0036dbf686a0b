import Foundation

#if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
    import SQLite3

    /// Applies `FileProtection` where data protection exists: iOS and its kin. Folders get the
    /// class through `FileManager` (a file made in a folder takes the folder's class, which covers
    /// content unpacked, part files and covers); SQLite's own files (`library.sqlite`, `-wal`,
    /// `-shm`) through Apple's open flags, which apply it to each file SQLite makes.
    enum DataProtection {
        /// Whether the platform enforces the classes.
        static let isEnforced = true

        /// Sets `protection` on the folder or file at `url`.
        static func apply(_ protection: FileProtection, to url: URL) throws {
            try FileManager.default.setAttributes([.protectionKey: type(of: protection)], ofItemAtPath: url.path)
        }

        /// The `sqlite3_open_v2` flag for `protection`.
        static func sqliteOpenFlags(for protection: FileProtection) -> Int32 {
            switch protection {
            case .none: SQLITE_OPEN_FILEPROTECTION_NONE
            case .complete: SQLITE_OPEN_FILEPROTECTION_COMPLETE
            case .completeUnlessOpen: SQLITE_OPEN_FILEPROTECTION_COMPLETEUNLESSOPEN
            case .completeUntilFirstUserAuthentication: SQLITE_OPEN_FILEPROTECTION_COMPLETEUNTILFIRSTUSERAUTHENTICATION
            }
        }

        private static func type(of protection: FileProtection) -> FileProtectionType {
            switch protection {
            case .none: .none
            case .complete: .complete
            case .completeUnlessOpen: .completeUnlessOpen
            case .completeUntilFirstUserAuthentication: .completeUntilFirstUserAuthentication
            }
        }
    }
#else
    /// Applies `FileProtection` where data protection exists, which is not here (Linux, macOS):
    /// the configured class is accepted and nothing is set.
    enum DataProtection {
        /// Whether the platform enforces the classes.
        static let isEnforced = false

        /// Does nothing: there are no protection classes to set.
        static func apply(_ protection: FileProtection, to url: URL) throws {}

        /// No flag: SQLite has no protection classes here.
        static func sqliteOpenFlags(for protection: FileProtection) -> Int32 { 0 }
    }
#endif
