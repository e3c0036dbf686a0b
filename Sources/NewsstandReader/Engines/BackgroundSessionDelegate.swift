import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One lane's session delegate: hands each callback to the engine with the lane it came from.
/// The session keeps its delegate until it is invalidated; the delegate keeps the engine weakly,
/// so an engine let go is not kept alive by its sessions.
final class BackgroundSessionDelegate: NSObject, URLSessionDownloadDelegate, Sendable {
    let lane: BackgroundSessionLane
    private weak let engine: BackgroundSessionEngine?

    init(lane: BackgroundSessionLane, engine: BackgroundSessionEngine) {
        self.lane = lane
        self.engine = engine
    }

    func urlSession(
        _ session: URLSession, downloadTask: URLSessionDownloadTask, didWriteData bytesWritten: Int64,
        totalBytesWritten: Int64, totalBytesExpectedToWrite: Int64
    ) {
        engine?.progressed(downloadTask, lane: lane, written: totalBytesWritten, expected: totalBytesExpectedToWrite)
    }

    func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL) {
        engine?.finished(downloadTask, lane: lane, location: location)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        engine?.completed(task, lane: lane, error: error)
    }

    /// Apple platforms call this once a relaunch's events are all delivered (FoundationNetworking
    /// never does: it has no relaunch; the tests call it as the system would).
    func urlSessionDidFinishEvents(forBackgroundURLSession session: URLSession) {
        engine?.deliveredAllEvents(lane: lane)
    }
}
