import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One writer per library folder: an advisory lock (`flock`) on `library.lock` in the folder,
/// held from opening until `close()` or the library's end. `flock` locks belong to an open
/// file description, so a second `IssueLibrary` on the same folder in the same process
/// conflicts just like another process; the kernel drops the lock when the process dies, so a
/// crash never leaves the folder locked.
final class LibraryLock: @unchecked Sendable {
    private let lock = NSLock()
    private var descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { release() }

    /// Takes the folder's lock, waiting up to `timeout` seconds while someone else holds it.
    static func acquire(_ file: URL, folder: URL, timeout: TimeInterval) throws(LibraryError) -> LibraryLock {
        // Opening an existing lock file writes nothing, so a library on a full disk still opens.
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw .cannotOpen(path: folder.path, reason: "cannot open its lock file: \(String(cString: strerror(errno)))")
        }
        let deadline = Date().addingTimeInterval(max(0, timeout))
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            if code == EINTR { continue }
            guard code == EWOULDBLOCK else {
                close(descriptor)
                throw .cannotOpen(path: folder.path, reason: "cannot lock it: \(String(cString: strerror(code)))")
            }
            guard Date() < deadline else {
                close(descriptor)
                throw .libraryInUse(path: folder.path)
            }
            usleep(50_000)
        }
        return LibraryLock(descriptor: descriptor)
    }

    /// Whether `release()` was called.
    var isReleased: Bool { lock.withLock { descriptor < 0 } }

    /// Gives the lock up (closing the descriptor releases it); later calls do nothing.
    func release() {
        let descriptor = lock.withLock {
            let current = self.descriptor
            self.descriptor = -1
            return current
        }
        if descriptor >= 0 { close(descriptor) }
    }
}
