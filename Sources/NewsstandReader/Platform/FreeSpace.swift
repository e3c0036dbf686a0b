import Foundation

#if canImport(Darwin)
    /// The free bytes of the volume holding a path, as the platform means them for content the
    /// user asked for. On Apple platforms `volumeAvailableCapacityForImportantUsage` (iOS 11,
    /// macOS 10.13): what the system can make available, counting purgeable data it would remove
    /// (`statfs`'s free blocks leave that out, so a full-looking iPhone refuses downloads it could
    /// take). Apple lists it among the required-reason APIs (disk space): an app embedding the
    /// reader declares it in its privacy manifest (README, "The reader on Apple platforms").
    enum FreeSpace {
        static func available(at url: URL) -> Int64? {
            let important = try? url.resourceValues(forKeys: [.volumeAvailableCapacityForImportantUsageKey])
            if let bytes = important?.volumeAvailableCapacityForImportantUsage, bytes > 0 { return bytes }
            let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.path)
            return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
        }
    }
#else
    /// The free bytes of the volume holding a path: on Linux the blocks an unprivileged process
    /// may still write (`statvfs`'s `f_bavail` × `f_frsize`, what `df` reports as available).
    enum FreeSpace {
        static func available(at url: URL) -> Int64? {
            var info = statvfs()
            guard statvfs(url.path, &info) == 0 else { return nil }
            let (bytes, overflow) = Int64(info.f_bavail).multipliedReportingOverflow(by: Int64(info.f_frsize))
            return overflow ? .max : bytes
        }
    }
#endif
