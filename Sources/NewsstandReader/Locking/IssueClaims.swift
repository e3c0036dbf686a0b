import Foundation
import NewsstandCore

/// One owner at a time works on an issue's files: its `.part` file and metadata, its unpack, its
/// update's swap, its removal. The claim of an issue is a `ClaimLock` on `Claims/<name>`, taken
/// under the writer lock (so that opening's repair, which also holds it, sees every claim) and
/// held only while that work runs: two processes, or two `IssueLibrary` instances, never write one
/// `.part` file at once, and an idle library holds no claim.
///
/// On iOS only the app downloads, and a claim is held only by a running in-process transfer;
/// `suspendDownloads()` (or `close()`), which an app calls before it is suspended, stops the
/// transfers and gives their claims up.
struct IssueClaims: Sendable {
    static let folderName = "Claims"

    /// `Claims/`.
    let folder: OpenFolder
    let lock: WriterLock

    /// Takes `name`'s claim now, or nil when another owner holds it. Blocking (it takes the
    /// writer lock): run it off the actor.
    func take(_ name: String) throws(LibraryError) -> ClaimLock? {
        try lock.hold { () throws(LibraryError) -> ClaimLock? in
            do throws(FileSystemError) {
                return try ClaimLock.take(name, in: folder)
            } catch {
                throw .fileSystem(path: error.path, reason: error.reason)
            }
        }
    }

    /// Waits until `name`'s claim is free and takes it (checking every tenth of a second, on a
    /// thread of its own); nil when the calling task is cancelled first, or when `seconds`
    /// (if given) have passed.
    func wait(for name: String, within seconds: TimeInterval? = nil) async throws(LibraryError) -> ClaimLock? {
        let cancelled = Locked(false)
        let deadline = seconds.map { Date().addingTimeInterval($0) }
        let outcome: Result<ClaimLock?, LibraryError> = await withTaskCancellationHandler {
            await BlockingWork.run {
                while !cancelled.current, deadline.map({ Date() < $0 }) ?? true {
                    do throws(LibraryError) {
                        if let claim = try take(name) { return .success(claim) }
                    } catch {
                        return .failure(error)
                    }
                    usleep(100_000)
                }
                return .success(nil)
            }
        } onCancel: {
            cancelled.exchange(true)
        }
        let claim = try outcome.get()
        if cancelled.current {
            claim?.release()
            return nil
        }
        return claim
    }
}
