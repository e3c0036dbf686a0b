import Foundation
import NewsstandCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One session's delegate: hands each callback to the engine with the session it came from.
/// The session keeps its delegate until it is invalidated; the delegate keeps the engine weakly,
/// so an engine let go is not kept alive by its sessions. The weak reference is kept in a
/// `Locked` box: a weak constant property needs Swift 6.2 (SE-0481), and the package declares 6.0.
final class BackgroundSessionDelegate: NSObject, URLSessionDownloadDelegate, Sendable {
    /// A weak reference to the engine.
    private struct WeakEngine {
        weak var engine: BackgroundSessionEngine?
    }

    let slot: BackgroundSessionSlot
    private let reference: Locked<WeakEngine>
    private var engine: BackgroundSessionEngine? { reference.withLock { $0.engine } }

    init(slot: BackgroundSessionSlot, engine: BackgroundSessionEngine) {
        self.slot = slot
        reference = Locked(WeakEngine(engine: engine))
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        engine?.progressed(downloadTask, in: slot, written: totalBytesWritten, expected: totalBytesExpectedToWrite)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        engine?.finished(downloadTask, in: slot, location: location)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        engine?.completed(task, in: slot, error: error)
    }

    /// Apple platforms call this once a relaunch's events are all delivered (FoundationNetworking
    /// never does: it has no relaunch; the tests call it as the system would).
    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        engine?.deliveredAllEvents(in: slot)
    }
}
