import Foundation

/// A folder whose files are reached only through it: every path below it is walked one
/// component at a time with `openat(O_NOFOLLOW)`, so a symbolic link inside (`a-1 -> /etc`)
/// is never read, written or deleted through, whatever swapped it in and when. The folder
/// itself may be a link: the user named it.
///
/// Paths are relative and use `/`; a component that is empty, `.` or `..` is refused here too,
/// whatever the caller checked before.
final class ConfinedFolder: @unchecked Sendable {  // immutable: a descriptor and a path
    /// The folder's descriptor, open for the object's lifetime.
    let descriptor: Int32
    /// The folder's path, for messages.
    let path: String

    /// What is at a path, without following a link there.
    enum Kind: Equatable {
        case missing
        case regular(size: Int64)
        case folder, symbolicLink, other

        var description: String {
            switch self {
            case .missing: "missing"
            case .regular: "a file"
            case .folder: "a folder"
            case .symbolicLink: "a symbolic link"
            case .other: "a special file"
            }
        }
    }

    /// Opens `path`, creating it (and its parents) when `create` is set.
    init(path: String, create: Bool, step: String) throws(PublishError) {
        if create {
            do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
                throw PublishError(step: step, target: path, reason: .system(Self.reason(error)))
            }
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw PublishError(step: step, target: path, reason: .system(Self.errnoText())) }
        descriptor = fd
        self.path = path
    }

    deinit { close(descriptor) }

    // MARK: Walking

    /// An open folder below the root; closes itself.
    final class Handle {
        let fd: Int32
        let owned: Bool
        init(_ fd: Int32, owned: Bool) {
            self.fd = fd
            self.owned = owned
        }
        deinit { if owned { close(fd) } }
    }

    /// Splits a relative path into checked components.
    func components(_ relative: String, step: String) throws(PublishError) -> [String] {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") }) else {
            throw PublishError(step: step, target: display(relative), reason: .invalid("not a relative path inside the folder"))
        }
        return parts
    }

    /// The folder holding `relative`'s last component, and that component. Every folder on the
    /// way is opened without following links; missing ones are made when `create` is set.
    func parent(of relative: String, create: Bool, step: String) throws(PublishError) -> (Handle, String)? {
        let parts = try components(relative, step: step)
        var current = Handle(descriptor, owned: false)
        for (index, part) in parts.dropLast().enumerated() {
            var fd = openat(current.fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if fd < 0, errno == ENOENT, create {
                if mkdirat(current.fd, part, 0o755) != 0, errno != EEXIST {
                    throw PublishError(
                        step: step, target: display(parts[...index].joined(separator: "/")), reason: .system(Self.errnoText()))
                }
                fd = openat(current.fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            guard fd >= 0 else {
                let failure = errno
                let prefix = parts[...index].joined(separator: "/")
                if failure == ENOENT { return nil }
                if failure == ELOOP || failure == ENOTDIR {
                    let kind = self.kind(atFolder: current.fd, name: part)
                    throw PublishError(
                        step: step, target: display(prefix), reason: .wrongKind(found: kind.description, expected: "a folder"))
                }
                throw PublishError(step: step, target: display(prefix), reason: .system(Self.errnoText(failure)))
            }
            current = Handle(fd, owned: true)
        }
        return (current, parts[parts.count - 1])
    }

    /// What is at `relative`, without following a link there.
    func kind(of relative: String, step: String) throws(PublishError) -> Kind {
        guard let (folder, name) = try parent(of: relative, create: false, step: step) else { return .missing }
        return kind(atFolder: folder.fd, name: name)
    }

    func kind(atFolder folder: Int32, name: String) -> Kind {
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int64(info.st_size))
        case S_IFDIR: return .folder
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    // MARK: Reading

    /// Opens a regular file for reading; nil when there is none. A link or a folder there is an error.
    func openForReading(_ relative: String, step: String) throws(PublishError) -> (fd: Int32, size: Int64)? {
        guard let (folder, name) = try parent(of: relative, create: false, step: step) else { return nil }
        let fd = openat(folder.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let failure = errno
            if failure == ENOENT { return nil }
            let kind = kind(atFolder: folder.fd, name: name)
            if failure == ELOOP || kind != .missing && !isRegular(kind) {
                throw PublishError(
                    step: step, target: display(relative), reason: .wrongKind(found: kind.description, expected: "a regular file")
                )
            }
            throw PublishError(step: step, target: display(relative), reason: .system(Self.errnoText(failure)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            let kind: Kind = info.st_mode & S_IFMT == S_IFDIR ? .folder : .other
            throw PublishError(
                step: step, target: display(relative), reason: .wrongKind(found: kind.description, expected: "a regular file"))
        }
        // Opened non-blocking so a FIFO planted there cannot hang the open; reads block again.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return (fd, Int64(info.st_size))
    }

    /// Reads a whole regular file of at most `limit` bytes; nil when there is none.
    func read(_ relative: String, limit: Int64, step: String) throws(PublishError) -> Data? {
        guard let (fd, size) = try openForReading(relative, step: step) else { return nil }
        defer { close(fd) }
        guard size <= limit else { throw PublishError(step: step, target: display(relative), reason: .tooLarge(limit: limit)) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw PublishError(step: step, target: display(relative), reason: .system(Self.errnoText())) }
            if n == 0 { return data }
            // The file may grow after fstat: the limit holds for what is read, not what was announced.
            guard Int64(data.count + n) <= limit else {
                throw PublishError(step: step, target: display(relative), reason: .tooLarge(limit: limit))
            }
            data.append(contentsOf: buffer[..<n])
        }
    }

    // MARK: Changing

    /// Creates a new file that no one else has opened (`O_EXCL`), beside `relative`, under a
    /// hidden temporary name; returns its descriptor, folder and name.
    func createTemporary(beside relative: String, step: String) throws(PublishError) -> Temporary {
        guard let (folder, name) = try parent(of: relative, create: true, step: step) else {
            throw PublishError(step: step, target: display(relative), reason: .system(Self.errnoText(ENOENT)))
        }
        let temporary = ".\(name.prefix(200)).\(UUID().uuidString.prefix(8)).tmp"
        let fd = openat(folder.fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw PublishError(step: step, target: display(relative), reason: .system(Self.errnoText())) }
        return Temporary(fd: fd, folder: folder, name: temporary, target: name)
    }

    /// A new hidden file beside its target, in an open folder: renamed into place through the
    /// same folder descriptor, so nothing swapped in on the path meanwhile is followed.
    struct Temporary {
        let fd: Int32
        let folder: Handle
        /// The temporary name, and the name it will take.
        let name: String
        let target: String

        /// Gives the file its real name, replacing what is there (a folder there makes it fail).
        func commit(display: String, step: String) throws(PublishError) {
            guard renameat(folder.fd, name, folder.fd, target) == 0 else {
                throw PublishError(step: step, target: display, reason: .system(ConfinedFolder.errnoText()))
            }
        }

        /// Removes the file (after a failure).
        func discard() { unlinkat(folder.fd, name, 0) }
    }

    /// Renames `from` to `to` (both relative), replacing a file at `to` atomically. A link at
    /// `to` is replaced itself, never followed; a folder there makes it fail.
    func rename(_ from: String, to: String, step: String) throws(PublishError) {
        guard let (source, sourceName) = try parent(of: from, create: false, step: step),
            let (target, targetName) = try parent(of: to, create: true, step: step)
        else { throw PublishError(step: step, target: display(from), reason: .system(Self.errnoText(ENOENT))) }
        guard renameat(source.fd, sourceName, target.fd, targetName) == 0 else {
            throw PublishError(step: step, target: display(to), reason: .system(Self.errnoText()))
        }
    }

    /// Makes `to` a second name of the regular file `from` (a hard link), or a copy where the
    /// file system has no hard links. False when `from` does not exist.
    func duplicate(_ from: String, to: String, step: String) throws(PublishError) -> Bool {
        guard let (source, sourceName) = try parent(of: from, create: false, step: step) else { return false }
        let kind = kind(atFolder: source.fd, name: sourceName)
        if kind == .missing { return false }
        guard isRegular(kind) else {
            throw PublishError(
                step: step, target: display(from), reason: .wrongKind(found: kind.description, expected: "a regular file"))
        }
        guard let (target, targetName) = try parent(of: to, create: true, step: step) else { return false }
        // linkat does not replace: an old leftover under the name goes first.
        if case .regular = self.kind(atFolder: target.fd, name: targetName) { unlinkat(target.fd, targetName, 0) }
        if linkat(source.fd, sourceName, target.fd, targetName, 0) == 0 { return true }
        guard [EPERM, EXDEV, EMLINK, ENOTSUP, EOPNOTSUPP].contains(errno) else {
            throw PublishError(step: step, target: display(to), reason: .system(Self.errnoText()))
        }
        guard let (input, _) = try openForReading(from, step: step) else { return false }
        defer { close(input) }
        let temporary = try createTemporary(beside: to, step: step)
        var closed = false
        do throws(PublishError) {
            try Self.copy(from: input, to: temporary.fd, target: display(to), step: step)
            close(temporary.fd)
            closed = true
            try temporary.commit(display: display(to), step: step)
        } catch {
            if !closed { close(temporary.fd) }
            temporary.discard()
            throw error
        }
        return true
    }

    /// Deletes the regular file at `relative`; nothing when it is already gone. Anything else
    /// there (a link, a folder) is left alone and reported.
    func deleteFile(_ relative: String, step: String) throws(PublishError) {
        guard let (folder, name) = try parent(of: relative, create: false, step: step) else { return }
        let kind = kind(atFolder: folder.fd, name: name)
        if kind == .missing { return }
        guard isRegular(kind) else {
            throw PublishError(
                step: step, target: display(relative), reason: .wrongKind(found: kind.description, expected: "a regular file"))
        }
        guard unlinkat(folder.fd, name, 0) == 0 || errno == ENOENT else {
            throw PublishError(step: step, target: display(relative), reason: .system(Self.errnoText()))
        }
    }

    /// Copies `input` to `output` to the end, through a bounded buffer.
    static func copy(from input: Int32, to output: Int32, target: String, step: String) throws(PublishError) {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(input, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw PublishError(step: step, target: target, reason: .system(errnoText())) }
            if n == 0 { return }
            try writeAll(output, buffer, count: n, target: target, step: step)
        }
    }

    /// Writes `count` bytes of `buffer` to `fd`, retrying short writes.
    static func writeAll(_ fd: Int32, _ buffer: [UInt8], count: Int, target: String, step: String) throws(PublishError) {
        var written = 0
        while written < count {
            let n = buffer.withUnsafeBytes { Foundation.write(fd, $0.baseAddress! + written, count - written) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw PublishError(step: step, target: target, reason: .system(errnoText())) }
            written += n
        }
    }

    /// The folder's path joined with `relative`, for messages.
    func display(_ relative: String) -> String {
        path.hasSuffix("/") ? path + relative : path + "/" + relative
    }

    private func isRegular(_ kind: Kind) -> Bool {
        if case .regular = kind { return true }
        return false
    }

    static func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    static func reason(_ error: Error) -> String {
        if let error = error as? CocoaError, let underlying = error.userInfo[NSUnderlyingErrorKey] as? POSIXError {
            return errnoText(underlying.code.rawValue)
        }
        return (error as NSError).localizedDescription
    }
}
