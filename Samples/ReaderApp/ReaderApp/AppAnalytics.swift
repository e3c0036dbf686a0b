import NewsstandReader
import os

/// The app's analytics: here the unified log (Console.app, subsystem
/// `com.example.newsstand.reader`, category `analytics`); a real app hands each event to its
/// analytics service's own queue. Called on the library's executor: it returns at once.
struct AppAnalytics: AnalyticsSink {
    func record(_ event: AnalyticsEvent) {
        let log = Logger(subsystem: "com.example.newsstand.reader", category: "analytics")
        switch event {
        case .notificationReceived(let issue):
            log.info("notification received: \(issue ?? "no issue", privacy: .public)")
        case .notificationOpened(let issue):
            log.info("notification opened: \(issue ?? "no issue", privacy: .public)")
        case .issueDownloaded(let name, let automatically):
            log.info("downloaded \(name, privacy: .public)\(automatically ? " automatically" : "", privacy: .public)")
        case .issueOpened(let name):
            log.info("opened \(name, privacy: .public)")
        case .issueUpdated(let name, let byRanges):
            log.info("updated \(name, privacy: .public)\(byRanges ? " by ranges" : "", privacy: .public)")
        case .issueRemoved(let name, let byPolicy):
            log.info("removed \(name, privacy: .public)\(byPolicy ? " by the storage policy" : "", privacy: .public)")
        }
    }
}
