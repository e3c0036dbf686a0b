import Foundation

/// A folder opened once and then worked in by name, never by path: every entry is opened,
/// created, renamed or removed relative to the open folder with links not followed. A name
/// swapped for a link after a check is then refused rather than followed, and nothing is
/// read, written or deleted outside the folder (the standard `ZipExtractor` sets for unpacking).
public final class OpenFolder: @unchecked Sendable {
    /// The open descriptor; closed when this object goes away.
    public let descriptor: Int32
    /// The path, for messages.
    public let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens the folder at `url`. Links in `url` are followed: it is a path the user gave (or
    /// one of our own), and the user may keep a magazine or an output behind a link.
    public static func open(_ url: URL) throws(FileOpenFailure) -> OpenFolder {
        let fd = Foundation.open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOTDIR { throw .wrongKind(kindOfPath(url.path)) }
            throw .fromErrno()
        }
        return OpenFolder(descriptor: fd, path: url.path)
    }

    /// The path of an entry, for messages.
    public func path(of name: String) -> String { path.hasSuffix("/") ? path + name : path + "/" + name }

    /// Opens the folder `name` in this one; a link there is refused, not followed.
    public func folder(_ name: String) throws(FileOpenFailure) -> OpenFolder {
        try Self.checkName(name)
        let fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw failure(opening: name) }
        return OpenFolder(descriptor: fd, path: path(of: name))
    }

    /// Opens the regular file `name` in this folder for reading; a link, folder, FIFO, socket
    /// or device there is refused (a FIFO is opened without blocking, then refused).
    public func file(_ name: String) throws(FileOpenFailure) -> OpenFile {
        try Self.checkName(name)
        // Not even opened when it is something else (opening a device can have effects);
        // the descriptor is checked again after the open, which is what counts.
        if let kind = kind(of: name), kind != .regularFile {
            throw kind == .symbolicLink ? .symbolicLink(target: linkTarget(of: name)) : .wrongKind(kind)
        }
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw failure(opening: name) }
        return try OpenFile(descriptor: fd, path: path(of: name))
    }

    /// What `name` is, without following a link; nil when there is nothing of that name.
    public func kind(of name: String) -> EntryKind? {
        var info = stat()
        guard Self.isSingleName(name), fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return EntryKind(mode: info.st_mode)
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
    public func entries() throws(FileOpenFailure) -> [FolderEntry] {
        // fdopendir takes the descriptor it is given: give it a copy of ours.
        let copy = openat(descriptor, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard copy >= 0 else { throw .fromErrno() }
        guard let stream = fdopendir(copy) else {
            let failure = FileOpenFailure.fromErrno()
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
            var info = stat()
            let cName = bytes.map { CChar(bitPattern: $0) } + [0]
            let kind = fstatat(descriptor, cName, &info, AT_SYMLINK_NOFOLLOW) == 0 ? EntryKind(mode: info.st_mode) : .unknown
            result.append(FolderEntry(rawName: bytes, kind: kind))
        }
        return result
    }

    // MARK: Writing

    /// Opens the folder `name` in this one, creating it when missing; a link there is refused.
    public func makeFolder(_ name: String) throws(FileOpenFailure) -> OpenFolder {
        try Self.checkName(name)
        if mkdirat(descriptor, name, 0o755) != 0, errno != EEXIST { throw .fromErrno() }
        return try folder(name)
    }

    /// Creates the file `name` for reading and writing (a zip writer reads back what it wrote);
    /// it must not exist (so no link can be followed).
    /// The caller owns the descriptor it returns.
    public func createFile(_ name: String, permissions: mode_t = 0o644) throws(FileOpenFailure) -> Int32 {
        try Self.checkName(name)
        let fd = openat(descriptor, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw .fromErrno() }
        return fd
    }

    /// Renames `name` to `newName`, both in this folder (replacing a file of that name).
    public func rename(_ name: String, to newName: String) throws(FileOpenFailure) {
        try Self.checkName(name)
        try Self.checkName(newName)
        guard renameat(descriptor, name, descriptor, newName) == 0 else { throw .fromErrno() }
    }

    /// Removes the file (or link) `name`; never follows a link, never removes a folder.
    public func removeFile(_ name: String) throws(FileOpenFailure) {
        try Self.checkName(name)
        guard unlinkat(descriptor, name, 0) == 0 else { throw .fromErrno() }
    }

    /// Removes the folder `name` if it is empty; returns whether it was removed.
    @discardableResult
    public func removeFolderIfEmpty(_ name: String) -> Bool {
        Self.isSingleName(name) && unlinkat(descriptor, name, AT_REMOVEDIR) == 0
    }

    // MARK: Names

    /// Whether `name` names an entry of this folder (one path component, not `.` or `..`).
    public static func isSingleName(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
    }

    private static func checkName(_ name: String) throws(FileOpenFailure) {
        guard isSingleName(name) else { throw .system("'\(name)' is not a name in a folder") }
    }

    /// Turns a failed `openat` into the reason: a link is named as one (with its target), a
    /// wrong kind as what it is.
    private func failure(opening name: String) -> FileOpenFailure {
        let code = errno
        guard let kind = kind(of: name) else { return .fromErrno(code) }
        if kind == .symbolicLink { return .symbolicLink(target: linkTarget(of: name)) }
        if code == ENOTDIR || code == ELOOP { return .wrongKind(kind) }
        return .fromErrno(code)
    }

    private static func kindOfPath(_ path: String) -> EntryKind {
        var info = stat()
        return lstat(path, &info) == 0 ? EntryKind(mode: info.st_mode) : .unknown
    }
}

/// One entry of a folder, by its raw name.
public struct FolderEntry: Equatable, Sendable {
    /// The name's bytes, as the file system keeps them.
    public var rawName: [UInt8]
    /// What it is (links not followed).
    public var kind: EntryKind

    /// The name, when it is valid UTF-8 (nil otherwise: such a name cannot be written in a plist).
    public var name: String? { String(validating: rawName, as: UTF8.self) }

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
