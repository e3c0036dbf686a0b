import Foundation
import NewsstandBuild
import NewsstandCore

/// A local folder: a web server's document root or a mounted volume. Every file is written
/// under a hidden temporary name, flushed, checked and renamed into place, so readers never see
/// half a file; every path below the folder is walked without following symbolic links
/// (`OpenFolder`), so a link inside it (`a-1 -> /etc`) is never written or deleted through.
public struct LocalFolderDestination: PublishDestination {
    public var root: URL
    public var description: String { root.path }
    public var supportsAtomicMove: Bool { true }

    public init(root: URL) { self.root = root }

    private func folder(_ step: String) throws(PublishError) -> OpenFolder {
        try PublishFiles.open(root, create: true, step: step)
    }

    /// The folder if it exists: reading (and a dry run) never creates it.
    private func existingFolder(_ step: String) throws(PublishError) -> OpenFolder? {
        guard FileStatus.size(of: root) != nil else { return nil }
        return try PublishFiles.open(root, create: false, step: step)
    }

    public func read(_ path: String, limit: Int64) async throws(PublishError) -> Data? {
        try await PublishFiles.offload { () throws(PublishError) -> Data? in
            guard let folder = try existingFolder("read") else { return nil }
            return try PublishFiles.read(path, in: folder, limit: limit, step: "read")
        }
    }

    public func upload(_ source: UploadSource, to path: String) async throws(PublishError) {
        try await PublishFiles.offload { () throws(PublishError) in try uploadNow(source, to: path, modified: nil) }
    }

    public func upload(_ source: UploadSource, to path: String, modified: Int) async throws(PublishError) {
        try await PublishFiles.offload { () throws(PublishError) in try uploadNow(source, to: path, modified: modified) }
    }

    public func modificationTime(of path: String) async throws(PublishError) -> Double? {
        try await PublishFiles.offload { () throws(PublishError) -> Double? in
            guard let folder = try existingFolder("read"),
                let status = try PublishFiles.status(at: path, in: folder, step: "read"),
                status.kind == .regularFile
            else { return nil }
            return status.modified
        }
    }

    private func uploadNow(_ source: UploadSource, to path: String, modified: Int?) throws(PublishError) {
        let folder = try folder("upload")
        let input = try source.open(step: "upload")
        let pending: AtomicFile
        let hasher = SHA256()
        let sent: Int64
        do throws(FileSystemError) {
            guard let (target, name) = try folder.parent(of: path, create: true) else { throw .missing(path: path) }
            pending = try AtomicFile.create(named: name, in: target)
            // Never more than promised: a file that grew is caught by the size check below.
            sent = try FileCopy.copy(input, to: pending.file, limit: source.size) { hasher.update($0) }
        } catch {
            throw .fileSystem("upload", error)
        }
        if let mismatch = source.mismatch(sent: sent, sha256: hasher.finalizeHex(), step: "upload") {
            pending.discard()
            throw mismatch
        }
        do {
            if let modified { try CatalogTimes.set(pending.file, to: modified, path: pending.temporaryPath) }
            // Durable: on disk before it gets its name, so after a power cut a served name
            // never points at nothing.
            try pending.commit(.durable)
        } catch {
            throw .fileSystem("upload", error)
        }
    }

    public func move(_ source: String, to destination: String) async throws(PublishError) {
        try await PublishFiles.offload { () throws(PublishError) in
            let folder = try folder("move")
            do throws(FileSystemError) {
                try folder.rename(at: source, to: destination)
            } catch {
                throw .fileSystem("move", error)
            }
        }
    }

    public func copy(_ source: String, to destination: String) async throws(PublishError) -> Bool {
        try await PublishFiles.offload { () throws(PublishError) -> Bool in
            guard let folder = try existingFolder("copy") else { return false }
            do throws(FileSystemError) {
                return try folder.duplicate(at: source, to: destination)
            } catch {
                throw .fileSystem("copy", error)
            }
        }
    }

    public func delete(_ path: String) async throws(PublishError) {
        try await PublishFiles.offload { () throws(PublishError) in
            guard let folder = try existingFolder("delete") else { return }
            do throws(FileSystemError) {
                try folder.removeRegularFile(at: path)
            } catch {
                throw .fileSystem("delete", error)
            }
        }
    }

    /// `manifest` without the files that are not at the destination as recorded (deleted or
    /// changed by hand): a stat each, so they are uploaded again rather than trusted.
    func confirming(_ manifest: PublishManifest) throws(PublishError) -> PublishManifest {
        guard let folder = try existingFolder("plan") else { return PublishManifest(files: [:], retired: manifest.retired) }
        var confirmed = manifest
        for (path, file) in manifest.files {
            if let status = try PublishFiles.status(at: path, in: folder, step: "plan"), status.kind == .regularFile,
                status.size == file.size
            {
                continue
            }
            confirmed.files[path] = nil
            if !confirmed.retired.contains(path) { confirmed.retired.append(path) }
        }
        return confirmed
    }

    /// How long `lock()` waits for the lock. A running publish holds it for its whole run, so
    /// a second one still fails, but not because of a process this one (or the program that
    /// embeds it) forked a moment ago: a child holds a copy of the lock's descriptor from
    /// `fork` until its `exec` closes it, and under load that window was long enough for a
    /// lock taken right after a release to be refused in tests.
    public static let lockWait: TimeInterval = 2

    /// An exclusive lock on `.newsstand-publish.lock` in the folder: a second publish to the
    /// same folder fails (after `lockWait`) instead of interleaving its renames with the first
    /// one's.
    public func lock() async throws(PublishError) -> PublishLock? {
        let folder: OpenFolder
        do { folder = try self.folder("lock") } catch { throw writeRefusal(error) }
        // Waiting blocks a thread: one of its own, not the cooperative pool's.
        let outcome = await BlockingWork.run { () -> Result<FileLock?, FileSystemError> in
            Result { () throws(FileSystemError) -> FileLock? in
                try FileLock.acquire(".newsstand-publish.lock", in: folder, timeout: Self.lockWait)
            }
        }
        let held: FileLock?
        switch outcome {
        case .success(let lock): held = lock
        case .failure(let error): throw writeRefusal(.fileSystem("lock", error))
        }
        guard let held else {
            throw PublishError(step: "lock", target: folder.path(of: ".newsstand-publish.lock"), reason: .locked)
        }
        return held
    }
}

extension LocalFolderDestination {
    /// `error`, or when the system refused to write (permissions, a read-only file system) the
    /// failure that says so and what to do.
    func writeRefusal(_ error: PublishError) -> PublishError {
        guard case .fileSystem(.system(_, let code)) = error.reason, [EACCES, EPERM, EROFS].contains(code) else {
            return error
        }
        return PublishError(
            step: error.step, target: error.target,
            reason: .cannotWrite(destination: root.path, reason: String(cString: strerror(code))),
            note: "Nothing that readers are served was changed.")
    }
}

/// A held `flock` is a publish's lock; releasing it (or its end) lets the next publish in.
extension FileLock: PublishLock {}
