import Foundation

#if canImport(Darwin)
    /// The free bytes of the volume holding a path, as the platform means them for `usage`. On
    /// Apple platforms `volumeAvailableCapacityForImportantUsage` for what the user asked for and
    /// `…ForOpportunisticUsage` for what the app fetches on its own (iOS 11, macOS 10.13): what the
    /// system can make available, counting purgeable data it would remove for that use (`statfs`'s
    /// free blocks leave that out, so a full-looking iPhone refuses downloads it could take). Apple
    /// lists them among the required-reason APIs (disk space): the reader's privacy manifest
    /// (`PrivacyInfo.xcprivacy`, reason E174.1: enough space to write files) declares them.
    enum FreeSpace {
        static func available(at url: URL, for usage: CapacityUsage) -> Int64? {
            let bytes: Int64?
            switch usage {
            case .important:
                let values = try? url.resourceValues(forKeys: [.volumeAvailableCapacityForImportantUsageKey])
                bytes = values?.volumeAvailableCapacityForImportantUsage
            case .opportunistic:
                let values = try? url.resourceValues(forKeys: [.volumeAvailableCapacityForOpportunisticUsageKey])
                bytes = values?.volumeAvailableCapacityForOpportunisticUsage
            }
            if let bytes, bytes > 0 { return bytes }
            let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.path)
            return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
        }
    }
#else
    /// The free bytes of the volume holding a path: on Linux the blocks an unprivileged process
    /// may still write (`statvfs`'s `f_bavail` × `f_frsize`, what `df` reports as available),
    /// whatever the usage (Linux purges nothing for anyone).
    enum FreeSpace {
        static func available(at url: URL, for usage: CapacityUsage) -> Int64? {
            var info = statvfs()
            guard statvfs(url.path, &info) == 0 else { return nil }
            let (bytes, overflow) = Int64(info.f_bavail).multipliedReportingOverflow(by: Int64(info.f_frsize))
            return overflow ? .max : bytes
        }
    }
#endif
