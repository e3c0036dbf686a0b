import Foundation

/// An advisory lock (`flock`) on a file that exists only while the lock is held: taken without
/// waiting, released by removing the file and closing it, so an idle folder holds no lock files.
/// Like `FileLock`, it belongs to an open file description (a second owner in the same process
/// conflicts as another process does) and dies with its process; a file left by a process that
/// died is taken over by the next owner, or removed by `removeUnheld(in:)`.
///
/// Removing a file someone may be about to lock is safe because a new owner checks, once it holds
/// the lock, that the name still names the file it locked; when it does not (the holder removed
/// it meanwhile), it starts again with the new file.
public final class ClaimLock: Sendable {
    private let folder: OpenFolder
    /// The file's name in `folder`.
    public let name: String
    /// The locked descriptor, -1 once released.
    private let descriptor: Locked<Int32>

    private init(folder: OpenFolder, name: String, descriptor: Int32) {
        self.folder = folder
        self.name = name
        self.descriptor = Locked(descriptor)
    }

    deinit { release() }

    /// Takes the lock on `name` in `folder` (creating the file, never through a link), or nil at
    /// once when someone else holds it.
    public static func take(_ name: String, in folder: OpenFolder) throws(FileSystemError) -> ClaimLock? {
        try folder.checkName(name)
        while true {
            let fd = openat(folder.descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw folder.failure(opening: name, expected: .regularFile) }
            if flock(fd, LOCK_EX | LOCK_NB) != 0 {
                let code = errno
                close(fd)
                if code == EINTR { continue }
                if code == EWOULDBLOCK { return nil }
                throw .system(path: folder.path(of: name), code: code)
            }
            if sameFile(fd, name, in: folder) { return ClaimLock(folder: folder, name: name, descriptor: fd) }
            // The holder removed the file between our open and our lock: this lock is on a file
            // nobody else can find. Lock the one the name names now.
            close(fd)
        }
    }

    /// Whether `descriptor` is the file `name` names in `folder` (and that file still has a name).
    private static func sameFile(_ descriptor: Int32, _ name: String, in folder: OpenFolder) -> Bool {
        var open = stat()
        var named = stat()
        guard fstat(descriptor, &open) == 0, open.st_nlink > 0,
            fstatat(folder.descriptor, name, &named, AT_SYMLINK_NOFOLLOW) == 0
        else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Whether anyone holds a lock in `folder`; removes the files of locks nobody holds (left by
    /// a process that died). Callers keep new owners out meanwhile (the reader holds its writer
    /// lock, which every new owner takes first).
    public static func anyHeld(in folder: OpenFolder) -> Bool {
        var held = false
        for entry in (try? folder.entries()) ?? [] {
            guard let name = entry.name, entry.kind == .regularFile else { continue }
            do {
                if let lock = try take(name, in: folder) { lock.release() } else { held = true }
            } catch {
                continue  // not a file this lock can use (it changed since it was listed): nobody's lock
            }
        }
        return held
    }

    /// Gives the lock up: removes the file while still holding it (only if the name still names
    /// it), then closes it. Later calls do nothing.
    public func release() {
        let fd = descriptor.exchange(-1)
        guard fd >= 0 else { return }
        if Self.sameFile(fd, name, in: folder) { unlinkat(folder.descriptor, name, 0) }
        close(fd)
    }
}
