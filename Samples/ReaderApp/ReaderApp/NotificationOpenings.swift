import NewsstandReader
import UserNotifications

/// Counts a tap on a notification (the user opened the app from it) for the app's analytics:
/// `AnalyticsEvent.notificationOpened`, with the issue the push names. A push's arrival is
/// counted by the library itself (`handleRemoteNotification`, `notificationReceived`).
///
/// Not on the main actor: the notification center calls the async forms of its delegate's
/// methods on a queue of its own. Nothing here is mutable, and what goes to the library's actor
/// is a `RemoteNotification`, a Sendable value.
final class NotificationOpenings: NSObject, UNUserNotificationCenterDelegate, Sendable {
    func userNotificationCenter(_ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse) async {
        let notification = RemoteNotification(userInfo: response.notification.request.content.userInfo)
        guard case .success(let library) = Magazine.opened else { return }
        await library.recordNotificationOpened(notification)
    }

    /// A notification that arrives while the app is in front is shown all the same.
    func userNotificationCenter(
        _ center: UNUserNotificationCenter, willPresent notification: UNNotification
    ) async -> UNNotificationPresentationOptions {
        [.banner, .list]
    }
}
