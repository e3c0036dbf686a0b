import Foundation

/// What one `stat` says about an entry: its kind, size, modification and status-change times.
public struct FileStatus: Equatable, Sendable {
    /// What the entry is (links are not followed).
    public var kind: EntryKind
    /// Size in bytes.
    public var size: Int64
    /// Modification time in seconds since 1970 (with fractions).
    public var modified: Double
    /// Status-change time (`ctime`) in seconds since 1970: set by the kernel on every write,
    /// rename or `chmod`, and unlike `modified` not settable by `touch` or `cp -p`, so a build
    /// record that matches it, the size and the modification time describes unchanged content.
    public var changed: Double

    init(_ info: stat) {
        kind = EntryKind(mode: info.st_mode)
        size = Int64(info.st_size)
        let times = StatTimes(info)
        modified = times.modified.seconds
        changed = times.changed.seconds
    }

    /// The status of the entry at `path`: of the link itself unless `followingLinks`
    /// (`lstat`/`stat`).
    public static func of(_ path: String, followingLinks: Bool = false) throws(FileSystemError) -> FileStatus {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { throw .fromErrno(path) }
        return FileStatus(info)
    }

    /// What is at `url` (links followed unless `followingLinks` is false), or nil when nothing is.
    public static func kind(of url: URL, followingLinks: Bool = true) -> EntryKind? {
        (try? of(url.path, followingLinks: followingLinks))?.kind
    }

    /// The size of the file at `url` (links followed), or nil when there is none.
    public static func size(of url: URL) -> Int64? {
        (try? of(url.path, followingLinks: true))?.size
    }

    /// The status of an open descriptor (`fstat`); `path` is for messages.
    public static func of(descriptor: Int32, path: String) throws(FileSystemError) -> FileStatus {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .fromErrno(path) }
        return FileStatus(info)
    }
}
