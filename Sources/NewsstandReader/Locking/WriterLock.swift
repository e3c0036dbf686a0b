import Foundation
import NewsstandCore

/// `library.lock` in the library's folder: taken for the length of one write transaction (and of
/// opening's repair, and of taking an issue's claim), with the configured timeout, and released
/// at once. Nothing holds it while nothing is written, so another process (an app extension, a
/// second `newsstand library`) can open and write the folder between two of our writes, and an
/// iOS app is never suspended holding it (a file lock in an App Group container held across
/// suspension gets the app killed, 0xdead10cc).
struct WriterLock: Sendable {
    static let fileName = "library.lock"

    /// The library's folder.
    let folder: OpenFolder
    /// How long to wait while another writer holds it (`LibraryConfiguration.lockTimeout`).
    let timeout: TimeInterval

    /// Runs `body` holding the lock. Blocking (waiting for the lock blocks the thread): call it
    /// from a `BlockingWork` thread, or from opening, which blocks its caller anyway.
    /// - Throws: `libraryInUse` when another writer still holds it after `timeout`.
    func hold<Result>(_ body: () throws(LibraryError) -> Result) throws(LibraryError) -> Result {
        let lock: FileLock?
        do {
            lock = try FileLock.acquire(Self.fileName, in: folder, timeout: timeout)
        } catch {
            throw .cannotSave(path: folder.path(of: Self.fileName), reason: "cannot lock it: \(error.reason)")
        }
        guard let lock else { throw .libraryInUse(path: folder.path) }
        defer { lock.release() }
        return try body()
    }
}
