import NewsstandReader
import UIKit
import UserNotifications

/// What the system tells the app rather than its scenes: launch, a relaunch for background
/// sessions' events, silent pushes. On the main actor, as `UIApplicationDelegate` is.
@MainActor
final class AppDelegate: NSObject, UIApplicationDelegate {
    /// The notification center keeps its delegate weakly: it lives here.
    private let notificationOpenings = NotificationOpenings()

    func application(
        _ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil
    ) -> Bool {
        // Before launch ends: a tap on a notification that launched the app is delivered to it.
        UNUserNotificationCenter.current().delegate = notificationOpenings
        Magazine.registerRefresh()
        switch Magazine.opened {
        case .success(let library):
            Magazine.startEngine(library)
        case .failure(let error):
            Magazine.log("launch").error("the shelf could not be opened: \(String(describing: error), privacy: .public)")
        }
        // Silent pushes need no permission from the user, only this and the remote-notification
        // background mode.
        application.registerForRemoteNotifications()
        return true
    }

    func application(_ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data) {
        // Send it to the service that sends the pushes (here it is only logged).
        let token = deviceToken.map { String(format: "%02x", $0) }.joined()
        Magazine.log("push").info("device token \(token, privacy: .private)")
    }

    func application(_ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: Error) {
        Magazine.log("push").error("no device token: \(String(describing: error), privacy: .public)")
    }

    /// iOS relaunched (or woke) the app for a background session's events. The handler is handed
    /// over here, synchronously, before anything is awaited and whether or not the library has
    /// attached its engine yet: the library calls it once the session's events are recorded.
    func application(
        _ application: UIApplication, handleEventsForBackgroundURLSession identifier: String,
        completionHandler: @escaping () -> Void
    ) {
        let systemHandler = MainThreadHandler(completionHandler)
        if !IssueLibrary.handleEventsForBackgroundSession(identifier: identifier, completion: { systemHandler.call() }) {
            // Not a session of a Newsstand library: the app's own would handle it; this app has none.
            completionHandler()
        }
    }

    /// A silent push (`"content-available": 1`, with `content-name` or `content-id`): the library
    /// refreshes, hands the issue to the background engine and answers within
    /// `newContentDeadline`. The async form: no UIKit completion handler crosses an actor.
    func application(
        _ application: UIApplication, didReceiveRemoteNotification userInfo: [AnyHashable: Any]
    ) async -> UIBackgroundFetchResult {
        // Made from `userInfo` before anything is awaited: a Sendable value for the library's actor.
        let notification = RemoteNotification(userInfo: userInfo)
        guard case .success(let library) = Magazine.opened else { return .failed }
        await Magazine.engineReady()
        // Records AnalyticsEvent.notificationReceived.
        switch await library.handleRemoteNotification(notification) {
        case .newData: return .newData
        case .noData: return .noData
        case .failed: return .failed
        }
    }
}

/// UIKit's completion handler for a background session's events. UIKit declares it neither
/// `Sendable` nor callable from any thread, and the library calls it from the session's
/// delegate queue: this carries it there and calls it on the main thread. `@unchecked`: the
/// closure is only ever called on the main queue.
struct MainThreadHandler: @unchecked Sendable {
    private let handler: () -> Void

    init(_ handler: @escaping () -> Void) {
        self.handler = handler
    }

    func call() {
        DispatchQueue.main.async { handler() }
    }
}
