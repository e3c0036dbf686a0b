import Foundation

/// The modification and status-change times of a `stat`, whose field names differ: glibc calls
/// them `st_mtim` and `st_ctim`, Darwin `st_mtimespec` and `st_ctimespec`. The one place either
/// name is spelled (ARCHITECTURE.md, "Platform islands").
struct StatTimes {
    var modified: timespec
    var changed: timespec

    #if canImport(Darwin)
        init(_ info: stat) {
            modified = info.st_mtimespec
            changed = info.st_ctimespec
        }
    #else
        init(_ info: stat) {
            modified = info.st_mtim
            changed = info.st_ctim
        }
    #endif
}

extension timespec {
    /// Seconds since 1970, with the nanoseconds as a fraction.
    var seconds: Double { Double(tv_sec) + Double(tv_nsec) / 1e9 }
}
