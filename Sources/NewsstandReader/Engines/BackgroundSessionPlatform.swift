import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What background sessions have on Apple platforms and FoundationNetworking lacks: the
/// background engine's island (ARCHITECTURE.md's islands table). Everything else of the engine
/// is the same code on both and runs in the Linux tests.
///
/// Checked against FoundationNetworking of Swift 6.3 (compiling each property here):
/// `background(withIdentifier:)` and `waitsForConnectivity` are marked unavailable,
/// `sessionSendsLaunchEvents`, `allowsExpensiveNetworkAccess` and
/// `allowsConstrainedNetworkAccess` (on the configuration and on `URLRequest`) do not exist,
/// `sharedContainerIdentifier` is read-only, and `isDiscretionary` and `allowsCellularAccess`
/// are accepted and have no effect. The resume data key has another Swift name there, and
/// `downloadTask(withResumeData:)` is not safe to call.
enum BackgroundSessionPlatform {
    #if canImport(Darwin)
        /// A background session configuration: the system runs its transfers outside the process
        /// and relaunches the app with their events.
        static func configuration(
            identifier: String, discretionary: Bool, sharedContainerIdentifier: String?
        ) -> URLSessionConfiguration {
            let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
            // macOS has it from 11 (an app there is not relaunched for its transfers before).
            if #available(macOS 11, *) { configuration.sessionSendsLaunchEvents = true }
            configuration.isDiscretionary = discretionary
            // An extension's transfers need a container its app can read the files from.
            configuration.sharedContainerIdentifier = sharedContainerIdentifier
            return configuration
        }

        /// Applies the job's network policy to its request (a request may narrow what the session
        /// allows, never widen it: the session allows everything).
        static func applyNetworkPolicy(of job: TransferJob, to request: inout URLRequest) {
            request.allowsCellularAccess = job.allowsCellularAccess
            if #available(iOS 13, macOS 10.15, tvOS 13, watchOS 6, *) {
                request.allowsExpensiveNetworkAccess = job.allowsExpensiveNetworkAccess
                request.allowsConstrainedNetworkAccess = job.allowsConstrainedNetworkAccess
            }
        }

        /// The user info key of a failed download's resume data.
        static let resumeDataKey = NSURLSessionDownloadTaskResumeData

        /// Whether `downloadTask(withResumeData:)` may be used.
        static let resumesFromResumeData = true
    #else
        /// A default session: FoundationNetworking has no background sessions, so transfers run
        /// in this process and end with it (the engine's logic, the hand-off, the keys and the
        /// part file's hand-over are the same code as on Apple platforms).
        static func configuration(
            identifier: String, discretionary: Bool, sharedContainerIdentifier: String?
        ) -> URLSessionConfiguration {
            let configuration = URLSessionConfiguration.default
            configuration.isDiscretionary = discretionary
            return configuration
        }

        /// Only cellular access exists here (and libcurl cannot tell a cellular network).
        static func applyNetworkPolicy(of job: TransferJob, to request: inout URLRequest) {
            request.allowsCellularAccess = job.allowsCellularAccess
        }

        /// The same key as Apple's `NSURLSessionDownloadTaskResumeData`, under another Swift name.
        static let resumeDataKey = URLSessionDownloadTaskResumeData

        /// Whether `downloadTask(withResumeData:)` may be used: not here. FoundationNetworking
        /// cannot resume from it, and the task it makes fails on the task's own queue while the
        /// session registers it on another: seen here to crash the process ("Trying to access a
        /// behaviour for a task that in not in the registry") once in a few runs.
        static let resumesFromResumeData = false
    #endif
}
