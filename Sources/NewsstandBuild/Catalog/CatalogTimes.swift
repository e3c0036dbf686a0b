import Foundation
import NewsstandCore

/// Modification times of rewritten catalogs: each new version in a later whole second than
/// the one it replaces, so the validators a static server derives from them change.
enum CatalogTimes {
    /// `UTIME_OMIT` (`(1 << 30) - 2` in Linux's and glibc's headers; a macro Swift does not import).
    static let utimeOmit = (1 << 30) - 2

    /// Sets `file`'s modification time to the second after `previous` when the clock has not
    /// yet left `previous`'s second (or is behind it); leaves it as written otherwise.
    static func moveOnIfNeeded(_ file: WritableFile, after previous: Double, path: String) throws(FileSystemError) {
        let previousSecond = Int(previous.rounded(.down))
        let now = Int(Date().timeIntervalSince1970.rounded(.down))
        guard now <= previousSecond else { return }
        var times = [
            timespec(tv_sec: 0, tv_nsec: utimeOmit),  // access time: leave it
            timespec(tv_sec: previousSecond + 1, tv_nsec: 0),
        ]
        guard futimens(file.descriptor, &times) == 0 else { throw .fromErrno(path) }
    }
}
