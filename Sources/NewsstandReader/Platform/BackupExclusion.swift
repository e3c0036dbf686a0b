import Foundation

#if canImport(Darwin)
    /// Keeps a folder out of device backups on Apple platforms (`isExcludedFromBackup`; on a
    /// folder it covers what the folder holds, as Apple's QA1719 describes). The library sets it
    /// again on every open: Apple's documentation warns that common file operations reset it.
    enum BackupExclusion {
        /// Whether the platform has backups to keep things out of.
        static let isEnforced = true

        /// Keeps `folder` out of backups, or lets them have it again.
        static func set(_ excluded: Bool, on folder: URL) throws {
            var values = URLResourceValues()
            values.isExcludedFromBackup = excluded
            var url = folder
            try url.setResourceValues(values)
        }
    }
#else
    /// Keeps a folder out of device backups, which Linux does not make: nothing to set.
    enum BackupExclusion {
        /// Whether the platform has backups to keep things out of.
        static let isEnforced = false

        /// Does nothing: there are no backups to keep `folder` out of.
        static func set(_ excluded: Bool, on folder: URL) throws {}
    }
#endif
