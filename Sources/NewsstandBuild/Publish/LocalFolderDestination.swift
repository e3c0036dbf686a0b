import Foundation
import NewsstandCore
import NewsstandFormat

/// A local folder: a web server's document root or a mounted volume. Every file is written
/// under a hidden temporary name, flushed, checked and renamed into place, so readers never see
/// half a file; every path below the folder is walked without following symbolic links
/// (`ConfinedFolder`), so a link inside it (`a-1 -> /etc`) is never written or deleted through.
public struct LocalFolderDestination: PublishDestination {
    public var root: URL
    public var description: String { root.path }
    public var supportsAtomicMove: Bool { true }

    public init(root: URL) { self.root = root }

    private func folder(_ step: String) throws(PublishError) -> ConfinedFolder {
        try ConfinedFolder(path: root.path, create: true, step: step)
    }

    /// The folder if it exists: reading (and a dry run) never creates it.
    private func existingFolder(_ step: String) throws(PublishError) -> ConfinedFolder? {
        guard FileManager.default.fileExists(atPath: root.path) else { return nil }
        return try ConfinedFolder(path: root.path, create: false, step: step)
    }

    public func read(_ path: String, limit: Int64) async throws(PublishError) -> Data? {
        try existingFolder("read")?.read(path, limit: limit, step: "read")
    }

    public func upload(_ source: UploadSource, to path: String) async throws(PublishError) {
        let folder = try folder("upload")
        let input = try source.open(step: "upload")
        defer { close(input) }
        let temporary = try folder.createTemporary(beside: path, step: "upload")
        var closed = false
        do throws(PublishError) {
            let (sent, sha256) = try Self.copy(input, to: temporary.fd, size: source.size, target: folder.display(path))
            // On disk before it gets its name: after a power cut, a name never points at nothing.
            guard fsync(temporary.fd) == 0 else {
                throw PublishError(step: "upload", target: folder.display(path), reason: .system(ConfinedFolder.errnoText()))
            }
            close(temporary.fd)
            closed = true
            if let mismatch = source.mismatch(sent: sent, sha256: sha256, step: "upload") { throw mismatch }
            try temporary.commit(display: folder.display(path), step: "upload")
        } catch {
            if !closed { close(temporary.fd) }
            temporary.discard()
            throw error
        }
    }

    public func move(_ source: String, to destination: String) async throws(PublishError) {
        try folder("move").rename(source, to: destination, step: "move")
    }

    public func copy(_ source: String, to destination: String) async throws(PublishError) -> Bool {
        try existingFolder("copy")?.duplicate(source, to: destination, step: "copy") ?? false
    }

    public func delete(_ path: String) async throws(PublishError) {
        try existingFolder("delete")?.deleteFile(path, step: "delete")
    }

    /// `manifest` without the files that are not at the destination as recorded (deleted or
    /// changed by hand): a stat each, so they are uploaded again rather than trusted.
    func confirming(_ manifest: PublishManifest) throws(PublishError) -> PublishManifest {
        guard let folder = try existingFolder("plan") else { return PublishManifest(files: [:], retired: manifest.retired) }
        var confirmed = manifest
        for (path, file) in manifest.files {
            if case .regular(let size) = try folder.kind(of: path, step: "plan"), size == file.size { continue }
            confirmed.files[path] = nil
            if !confirmed.retired.contains(path) { confirmed.retired.append(path) }
        }
        return confirmed
    }

    /// An exclusive `flock` on `.newsstand-publish.lock` in the folder: a second publish to the
    /// same folder fails at once instead of interleaving its renames with the first one's.
    public func lock() async throws(PublishError) -> PublishLock? {
        let folder = try folder("lock")
        let fd = openat(folder.descriptor, ".newsstand-publish.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw PublishError(
                step: "lock", target: folder.display(".newsstand-publish.lock"), reason: .system(ConfinedFolder.errnoText()))
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            close(fd)
            throw PublishError(
                step: "lock", target: folder.display(".newsstand-publish.lock"),
                reason: failure == EWOULDBLOCK ? .locked : .system(ConfinedFolder.errnoText(failure)))
        }
        return FolderLock(fd: fd)
    }

    /// Copies up to `size` bytes (never more: a file that grew is caught by the size check)
    /// and hashes them on the way.
    private static func copy(_ input: Int32, to output: Int32, size: Int64, target: String) throws(PublishError) -> (
        Int64, String
    ) {
        let hasher = SHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var copied: Int64 = 0
        while copied <= size {
            let n = buffer.withUnsafeMutableBytes { Foundation.read(input, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw PublishError(step: "upload", target: target, reason: .system(ConfinedFolder.errnoText())) }
            if n == 0 { break }
            buffer.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
            try ConfinedFolder.writeAll(output, buffer, count: n, target: target, step: "upload")
            copied += Int64(n)
        }
        return (copied, hasher.finalizeHex())
    }
}

/// A held `flock`; closing the descriptor releases it.
final class FolderLock: PublishLock, @unchecked Sendable {
    private let lock = NSLock()
    private var fd: Int32

    init(fd: Int32) { self.fd = fd }

    func release() {
        lock.withLock {
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    deinit { release() }
}
