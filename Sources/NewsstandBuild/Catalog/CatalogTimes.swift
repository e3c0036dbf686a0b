import Foundation
import NewsstandCore

/// Modification times of rewritten catalogs: each new version in a later whole second than
/// the one it replaces, so the validators a static server derives from them change (the
/// build's own catalogs here; publish's at the destination with `time(replacing:)`).
package enum CatalogTimes {
    /// `UTIME_OMIT` (`(1 << 30) - 2` in Linux's and glibc's headers; a macro Swift does not import).
    static let utimeOmit = (1 << 30) - 2

    /// The whole second a catalog replacing one modified at `previous` (seconds since 1970;
    /// nil when there is none) is given: now, or the second after `previous` when the clock has
    /// not yet left that second or is behind it. Never earlier than `previous`: a server answers
    /// an `If-Modified-Since` with 304 for any time not after the one asked about.
    package static func time(replacing previous: Double?, now: Double = Date().timeIntervalSince1970) -> Int {
        let current = Int(now.rounded(.down))
        guard let previous else { return current }
        return max(current, Int(previous.rounded(.down)) + 1)
    }

    /// Sets `file`'s modification time to the second after `previous` when the clock has not
    /// yet left `previous`'s second (or is behind it); leaves it as written otherwise.
    static func moveOnIfNeeded(_ file: WritableFile, after previous: Double, path: String) throws(FileSystemError) {
        let previousSecond = Int(previous.rounded(.down))
        let now = Int(Date().timeIntervalSince1970.rounded(.down))
        guard now <= previousSecond else { return }
        try set(file, to: previousSecond + 1, path: path)
    }

    /// Sets `file`'s modification time to `seconds` since 1970 (its access time is left).
    package static func set(_ file: WritableFile, to seconds: Int, path: String) throws(FileSystemError) {
        var times = [
            timespec(tv_sec: 0, tv_nsec: utimeOmit),  // access time: leave it
            timespec(tv_sec: seconds, tv_nsec: 0),
        ]
        guard futimens(file.descriptor, &times) == 0 else { throw .fromErrno(path) }
    }
}
