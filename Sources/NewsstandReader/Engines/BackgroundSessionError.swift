import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a background download task's error says: why it failed, and what URLSession left to
/// resume from. Read from the error's user info, which is the same on every platform
/// (FoundationNetworking never fills in the two keys, but reads them alike).
struct BackgroundSessionError: Equatable, Sendable {
    /// The failure the sink is told.
    var failure: TransferFailure
    /// `NSURLSessionDownloadTaskResumeData`: what a later `downloadTask(withResumeData:)` goes
    /// on from (a failed or system-cancelled transfer on Apple platforms; never on Linux).
    var resumeData: Data?
}

extension BackgroundSessionError {
    /// The meaning of `error`, a task's `didCompleteWithError`.
    init(_ error: Error) {
        let info = (error as NSError).userInfo
        resumeData = info[BackgroundSessionPlatform.resumeDataKey] as? Data
        // The system cancels with this reason (a force-quit above all); the library's own
        // cancel carries none.
        if let reason = (info[NSURLErrorBackgroundTaskCancelledReasonKey] as? NSNumber)?.intValue {
            failure = .cancelledBySystem(SystemCancelReason(reason))
        } else {
            failure = URLErrorClassification.failure(for: error)
        }
    }
}
