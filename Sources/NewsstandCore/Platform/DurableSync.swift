import Foundation

/// Flushes a file or a folder to stable storage, for `Durability.durable`. On Apple platforms
/// `fsync` only hands the data to the drive, which may keep it in its cache across a power cut;
/// `F_FULLFSYNC` asks the drive to write it out (Apple's `fsync(2)` says so), and a file system
/// that does not support it (some network volumes) falls back to `fsync`. On Linux `fsync`
/// already flushes the drive's cache.
enum DurableSync {
    /// Returns 0, or -1 with `errno` set as `fsync` would.
    static func flush(_ descriptor: Int32) -> Int32 {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
            return fsync(descriptor)
        #else
            return fsync(descriptor)
        #endif
    }
}
