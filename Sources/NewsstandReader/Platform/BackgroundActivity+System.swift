import Foundation
import NewsstandCore

extension BackgroundActivity {
    #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        /// `ProcessInfo.performExpiringActivity(withReason:using:)` (iOS 8.2): it holds the process
        /// awake while its block runs, in an app and in an app extension alike (`UIApplication`'s
        /// `beginBackgroundTask` is unavailable in extensions, and the reader runs in a
        /// Notification Service Extension too), and calls the block again with `expired` when the
        /// system is about to suspend the process. The first block waits, on the system's
        /// concurrent queue, until the activity ends or expires.
        public static let system = BackgroundActivity { reason, expired in
            let ended = DispatchSemaphore(value: 0)
            ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { isExpiring in
                if isExpiring {
                    expired()
                    ended.signal()
                } else {
                    ended.wait()
                }
            }
            return { ended.signal() }
        }
    #else
        /// macOS and Linux suspend no process for being in the background: no activity.
        public static let system = BackgroundActivity.none
    #endif
}
