import Foundation

/// Which file an entry is and in which state, from one `stat`: device, inode, size and both
/// times to the nanosecond. Two equal identities name the same file with the same content,
/// unless it was written twice within one tick of the file system's clock (the caller guards
/// that: see `isSettled(at:)`). A file replaced by another (`cp`, a restored cache, a rename)
/// has another inode or `ctime`, which nobody can set back.
public struct FileIdentity: Equatable, Hashable, Sendable {
    /// The device the file is on.
    public var device: UInt64
    /// Its inode number on that device.
    public var inode: UInt64
    /// Its size in bytes.
    public var size: Int64
    /// Modification time: whole seconds since 1970.
    public var modifiedSeconds: Int64
    /// Modification time: the nanoseconds past that second.
    public var modifiedNanoseconds: Int64
    /// Status-change time (ctime): whole seconds since 1970.
    public var changedSeconds: Int64
    /// Status-change time: the nanoseconds past that second.
    public var changedNanoseconds: Int64

    /// An identity from the fields of one `stat`.
    public init(
        device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64, changedSeconds: Int64,
        changedNanoseconds: Int64
    ) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedSeconds = changedSeconds
        self.changedNanoseconds = changedNanoseconds
    }

    init(_ info: stat) {
        let times = StatTimes(info)
        // `dev_t` is a signed 32-bit number on Darwin (and may be negative), an unsigned 64-bit one
        // on Linux; `UInt64(_:)` of a negative one traps. Its bits are the identity either way.
        self.init(
            device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
            size: Int64(info.st_size), modifiedSeconds: Int64(times.modified.tv_sec),
            modifiedNanoseconds: Int64(times.modified.tv_nsec), changedSeconds: Int64(times.changed.tv_sec),
            changedNanoseconds: Int64(times.changed.tv_nsec))
    }

    /// The identity of the regular file `name` in `folder` (a link is not followed: nil, as for
    /// anything that is not a regular file or is missing).
    public static func of(_ name: String, in folder: OpenFolder) -> FileIdentity? {
        var info = stat()
        guard OpenFolder.isSingleName(name), fstatat(folder.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0,
            info.st_mode & 0o170000 == 0o100000
        else { return nil }
        return FileIdentity(info)
    }

    /// The identity of the regular file at `path`, links followed; nil when there is none.
    public static func of(path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & 0o170000 == 0o100000 else { return nil }
        return FileIdentity(info)
    }

    /// The identity of the open file.
    public static func of(_ file: OpenFile) -> FileIdentity? {
        var info = stat()
        guard fstat(file.descriptor, &info) == 0, info.st_mode & 0o170000 == 0o100000 else { return nil }
        return FileIdentity(info)
    }

    /// Whether the file's last change is at least `margin` seconds before `now` (seconds since
    /// 1970): only then can what was read from it be remembered by this identity. A write in
    /// the same clock tick as the read (the kernel stamps times from a coarse clock) could
    /// otherwise leave the identity unchanged with other bytes: git's "racy" index entries.
    public func isSettled(at now: Double, margin: Double = 1) -> Bool {
        let changed = Double(changedSeconds) + Double(changedNanoseconds) / 1e9
        let modified = Double(modifiedSeconds) + Double(modifiedNanoseconds) / 1e9
        return max(changed, modified) < now - margin
    }
}
