import Foundation

/// One process (or one owner in this process) at a time in a folder: an advisory lock
/// (`flock`) on a lock file in it, held until `release()` or this object's end. `flock` locks
/// belong to an open file description, so a second owner in the same process conflicts just
/// like another process; the kernel drops the lock when a process dies, so a crash never
/// leaves a folder locked.
public final class FileLock: Sendable {
    /// The lock file's descriptor; -1 once released.
    private let descriptor: Locked<Int32>

    private init(descriptor: Int32) { self.descriptor = Locked(descriptor) }

    deinit { release() }

    /// Takes the lock on `name` in `folder` (creating the file, never through a link), waiting
    /// up to `timeout` seconds while someone else holds it; nil when it is still held then.
    /// Opening an existing lock file writes nothing, so a folder on a full disk can be locked.
    /// Waiting blocks the calling thread.
    public static func acquire(_ name: String, in folder: OpenFolder, timeout: TimeInterval) throws(FileSystemError) -> FileLock?
    {
        try folder.checkName(name)
        let descriptor = openat(folder.descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw folder.failure(opening: name, expected: .regularFile) }
        let deadline = Date().addingTimeInterval(max(0, timeout))
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK, Date() < deadline else {
                close(descriptor)
                if code == EWOULDBLOCK { return nil }
                throw .system(path: folder.path(of: name), code: code)
            }
            usleep(50_000)
        }
        return FileLock(descriptor: descriptor)
    }

    /// Whether `release()` was called.
    public var isReleased: Bool { descriptor.current < 0 }

    /// Gives the lock up (closing the descriptor releases it); later calls do nothing.
    public func release() {
        let descriptor = self.descriptor.exchange(-1)
        if descriptor >= 0 { close(descriptor) }
    }
}
