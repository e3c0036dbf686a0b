import Foundation

/// A folder opened once and then worked in by name, never by path: every entry is opened,
/// created, renamed or removed relative to the open folder with links not followed. A name
/// swapped for a link after a check is then refused rather than followed, and nothing is
/// read, written or deleted outside the folder. Relative paths below it (`a-1/a-1.zip`) are
/// walked the same way, one component at a time (`OpenFolder+Paths`).
///
/// The folder itself may be reached through links: the user named it (a magazine, an output
/// folder, a web server's document root may live behind one).
public final class OpenFolder: @unchecked Sendable {  // immutable: a descriptor and a path
    /// The open descriptor; closed when this object goes away.
    public let descriptor: Int32
    /// The path, for messages.
    public let path: String

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens the folder at `url`, creating it and its parents first when `create` is set.
    /// Links in `url` are followed: it is a path the user gave (or one of our own).
    public static func open(_ url: URL, create: Bool = false) throws(FileSystemError) -> OpenFolder {
        let path = url.path
        if create { try makePath(path) }
        let fd = Foundation.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOTDIR, let status = try? FileStatus.of(path) {
                throw .wrongKind(path: path, found: status.kind, expected: .folder)
            }
            throw .fromErrno(path, code)
        }
        return OpenFolder(descriptor: fd, path: path)
    }

    /// `mkdir -p`: every missing folder of `path`.
    private static func makePath(_ path: String) throws(FileSystemError) {
        let absolute = path.hasPrefix("/")
        var current = absolute ? "" : "."
        for part in path.split(separator: "/") {
            current += "/" + part
            guard mkdir(current, 0o755) != 0 else { continue }
            let code = errno
            guard code == EEXIST else { throw .fromErrno(current, code) }
        }
    }

    /// The path of an entry, for messages.
    public func path(of name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }

    // MARK: Reading

    /// Opens the folder `name` in this one; a link there is refused, not followed.
    public func folder(_ name: String) throws(FileSystemError) -> OpenFolder {
        try checkName(name)
        let fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw failure(opening: name, expected: .folder) }
        return OpenFolder(descriptor: fd, path: path(of: name))
    }

    /// Opens the regular file `name` in this folder for reading; a link, folder, FIFO, socket
    /// or device there is refused (a FIFO is opened without blocking, then refused).
    public func file(_ name: String) throws(FileSystemError) -> OpenFile {
        try checkName(name)
        // Not even opened when it is something else (opening a device can have effects);
        // the descriptor is checked again after the open, which is what counts.
        if let kind = kind(of: name), kind != .regularFile {
            throw kind == .symbolicLink
                ? .symbolicLink(path: path(of: name), target: linkTarget(of: name), expected: .regularFile)
                : .wrongKind(path: path(of: name), found: kind, expected: .regularFile)
        }
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw failure(opening: name, expected: .regularFile) }
        return try OpenFile(descriptor: fd, path: path(of: name))
    }

    /// What `name` is, without following a link; nil when there is nothing of that name.
    public func kind(of name: String) -> EntryKind? {
        status(of: name)?.kind
    }

    /// The status of `name` (a link's own, not its target's); nil when there is nothing of that name.
    public func status(of name: String) -> FileStatus? {
        var info = stat()
        guard Self.isSingleName(name), fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileStatus(info)
    }

    /// Where the link `name` points, if it is one.
    public func linkTarget(of name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlinkat(descriptor, name, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Every entry but `.` and `..`, with its raw name (any bytes: a name need not be UTF-8)
    /// and its kind (links not followed), in no particular order.
    public func entries() throws(FileSystemError) -> [FolderEntry] {
        // fdopendir takes the descriptor it is given: give it a copy of ours.
        let copy = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard copy >= 0 else { throw .fromErrno(path) }
        guard let stream = fdopendir(copy) else {
            let failure = FileSystemError.fromErrno(path)
            close(copy)
            throw failure
        }
        defer { closedir(stream) }
        var result: [FolderEntry] = []
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: &entry.pointee.d_name) { raw -> [UInt8] in
                let all = raw.bindMemory(to: UInt8.self)
                return Array(all[..<(all.firstIndex(of: 0) ?? all.count)])
            }
            if bytes == [0x2E] || bytes == [0x2E, 0x2E] { continue }
            // The kind readdir gives (ext4, xfs, btrfs, tmpfs give it), saving a stat per entry
            // (build records list every issue's assets/ on every build); lstat where the file
            // system does not say.
            var kind = Self.kind(direntType: entry.pointee.d_type)
            if kind == nil {
                var info = stat()
                kind =
                    fstatat(descriptor, Self.cName(bytes), &info, AT_SYMLINK_NOFOLLOW) == 0
                    ? EntryKind(mode: info.st_mode) : .unknown
            }
            result.append(FolderEntry(rawName: bytes, kind: kind ?? .unknown))
        }
        return result
    }

    /// The kind a `dirent`'s `d_type` says, or nil when it does not say (`DT_UNKNOWN`).
    private static func kind(direntType type: UInt8) -> EntryKind? {
        switch Int(type) {
        case Int(DT_REG): .regularFile
        case Int(DT_DIR): .folder
        case Int(DT_LNK): .symbolicLink
        case Int(DT_FIFO): .fifo
        case Int(DT_SOCK): .socket
        case Int(DT_CHR), Int(DT_BLK): .device
        default: nil
        }
    }

    // MARK: Writing

    /// Opens the folder `name` in this one, creating it when missing; a link there is refused.
    public func makeFolder(_ name: String) throws(FileSystemError) -> OpenFolder {
        try checkName(name)
        if mkdirat(descriptor, name, 0o755) != 0, errno != EEXIST { throw .fromErrno(path(of: name)) }
        return try folder(name)
    }

    /// Creates the file `name` for reading and writing (a zip writer reads back what it wrote);
    /// it must not exist (`O_EXCL`, so no link can be followed and nobody else has it open).
    public func createFile(_ name: String, permissions: mode_t = 0o644) throws(FileSystemError) -> WritableFile {
        try checkName(name)
        let fd = openat(descriptor, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw .fromErrno(path(of: name)) }
        return WritableFile(descriptor: fd, path: path(of: name))
    }

    /// Opens the regular file `name` for writing at `offset`, cutting it there (0 empties it),
    /// creating it when missing; a link or anything else there is refused.
    public func openForWriting(_ name: String, at offset: Int64) throws(FileSystemError) -> WritableFile {
        try checkName(name)
        let fd = openat(descriptor, name, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(opening: name, expected: .regularFile) }
        let file = WritableFile(descriptor: fd, path: path(of: name))
        let status = try FileStatus.of(descriptor: fd, path: file.path)
        guard status.kind == .regularFile else {
            throw .wrongKind(path: file.path, found: status.kind, expected: .regularFile)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        guard ftruncate(fd, off_t(offset)) == 0, lseek(fd, off_t(offset), SEEK_SET) >= 0 else { throw .fromErrno(file.path) }
        return file
    }

    /// Renames `name` to `newName` in `folder` (this one by default), replacing a file there.
    /// A link at either name is renamed or replaced itself, never followed.
    public func rename(_ name: String, to newName: String, in folder: OpenFolder? = nil) throws(FileSystemError) {
        let target = folder ?? self
        try checkName(name)
        try target.checkName(newName)
        guard renameat(descriptor, name, target.descriptor, newName) == 0 else {
            let code = errno
            throw .fromErrno(code == ENOENT ? path(of: name) : target.path(of: newName), code)
        }
    }

    /// Makes `newName` in `folder` a second name of the file `name` (a hard link; never over
    /// an existing entry).
    public func hardLink(_ name: String, to newName: String, in folder: OpenFolder? = nil) throws(FileSystemError) {
        let target = folder ?? self
        try checkName(name)
        try target.checkName(newName)
        guard linkat(descriptor, name, target.descriptor, newName, 0) == 0 else {
            throw .fromErrno(target.path(of: newName))
        }
    }

    /// Flushes the folder's entries to the disk (after a rename that must survive a power cut).
    public func synchronize() throws(FileSystemError) {
        guard DurableSync.flush(descriptor) == 0 else { throw .fromErrno(path) }
    }

    // MARK: Names

    /// Whether `name` names an entry of this folder (one path component, not `.` or `..`).
    /// On the bytes: `contains("/")` was Foundation's string search, a tenth of a no-change
    /// build (every recorded input is looked up by name); `/` and NUL are ASCII, so no other
    /// character's bytes hold them, and a `/` with a combining mark after it is refused too.
    public static func isSingleName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.utf8.contains(where: { $0 == 0x2F || $0 == 0 })
    }

    func checkName(_ name: String) throws(FileSystemError) {
        guard Self.isSingleName(name) else { throw .invalidName(path: path, name: name) }
    }

    static func cName(_ bytes: [UInt8]) -> [CChar] { bytes.map { CChar(bitPattern: $0) } + [0] }

    /// Turns a failed `openat` into the reason: a link is named as one (with its target), a
    /// wrong kind as what it is.
    func failure(opening name: String, expected: EntryKind) -> FileSystemError {
        let code = errno
        let entry = path(of: name)
        guard let kind = kind(of: name) else { return .fromErrno(entry, code) }
        if kind == .symbolicLink { return .symbolicLink(path: entry, target: linkTarget(of: name), expected: expected) }
        if code == ENOTDIR || code == ELOOP || kind != expected {
            return .wrongKind(path: entry, found: kind, expected: expected)
        }
        return .fromErrno(entry, code)
    }
}

/// One entry of a folder, by its raw name.
public struct FolderEntry: Equatable, Sendable {
    /// The name's bytes, as the file system keeps them.
    public var rawName: [UInt8]
    /// What it is (links not followed).
    public var kind: EntryKind

    /// The name, when it is valid UTF-8 (nil otherwise: such a name cannot be written in a plist).
    public var name: String? { UTF8Text.decode(rawName) }

    /// Whether the name starts with a dot.
    public var isHidden: Bool { rawName.first == 0x2E }

    /// The name for messages: as it is when it is UTF-8 without control characters; otherwise
    /// printable ASCII as is and every other byte as `\xFF` (so a name cannot drive a terminal).
    public var displayName: String {
        if let name, !rawName.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return name }
        return rawName.map { byte in
            (0x20..<0x7F).contains(byte) && byte != 0x5C ? String(UnicodeScalar(byte)) : String(format: "\\x%02X", byte)
        }.joined()
    }
}
