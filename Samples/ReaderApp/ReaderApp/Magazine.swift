import BackgroundTasks
import Foundation
import NewsstandReader
import SwiftUI
import UIKit
import os

/// The app's one library, and what the app does with it at launch, in the background and when a
/// scene changes phase. Every name the system also knows (the app group, the refresh task, the
/// extension) is here, next to the file that declares it to the system.
enum Magazine {
    /// The app group the library lives in, shared with the app's extensions: `ReaderApp.entitlements`.
    static let appGroup = "group.com.example.newsstand.reader"
    /// The Notification Service Extension's bundle identifier: it may start the download a push
    /// announces, on a background session of its own, which the app adopts (see `startEngine`).
    static let notificationServiceExtension = "com.example.newsstand.reader.NotificationService"
    /// The periodic refresh: `BGTaskSchedulerPermittedIdentifiers` in `Info.plist`.
    static let refreshTaskIdentifier = "com.example.newsstand.reader.refresh"
    /// The sample magazine (`make sample`, served by `make publish-sample`; `Info.plist` allows
    /// plain http to this local address only). A real app's catalog is https.
    static let catalogURL = URL(string: "http://localhost:8080/aurora/issues.plist")!

    /// The library, opened once per process, the first time anything asks: at launch, by
    /// `AppDelegate`. A `let` of a `Sendable` type: every actor and queue reads it without a hop.
    static let opened: Result<IssueLibrary, LibraryError> = open()

    private static func open() -> Result<IssueLibrary, LibraryError> {
        guard let group = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup) else {
            return .failure(.cannotOpen(path: appGroup, reason: "no container for the app group: check ReaderApp.entitlements"))
        }
        var configuration = LibraryConfiguration()
        configuration.analytics = AppAnalytics()
        configuration.maxStorageBytes = 2 << 30  // keep downloads under 2 GiB, oldest out first
        // A silent push gets about 30 s in all; at launch, part of it goes to adopting the
        // background sessions' work (`startEngine`) before the push is handled.
        configuration.newContentDeadline = 20
        do {
            return .success(try IssueLibrary(folder: group.appendingPathComponent("Shelf"), scale: .retina, configuration: configuration))
        } catch {
            return .failure(error)
        }
    }

    static func log(_ category: String) -> Logger { Logger(subsystem: "com.example.newsstand.reader", category: category) }

    // MARK: - Launch

    /// The background engine's start, from `application(_:didFinishLaunchingWithOptions:)`: what a
    /// push or a refresh waits for before it asks the library for a download.
    @MainActor private static var engineStarted: Task<Void, Never>?

    /// Puts the library on background URLSessions, adopting what they did while the app was gone.
    /// Called once, at launch, before anything else touches the library. The system's handler of a
    /// relaunch for session events does not wait for it: `AppDelegate` hands it over synchronously.
    @MainActor static func startEngine(_ library: IssueLibrary) {
        guard engineStarted == nil else { return }
        engineStarted = Task {
            let adopted = await library.useBackgroundEngine(
                .urlSession(
                    bundleIdentifier: Bundle.main.bundleIdentifier!,
                    sharedContainerIdentifier: appGroup,
                    // A download the Notification Service Extension started for a push runs on
                    // that extension's session; the app adopts it and installs what it brings.
                    extensionBundleIdentifiers: [notificationServiceExtension]))
            // adopted.installed: issues whose files arrived while the app was gone, now verified and unpacked.
            if !adopted.installed.isEmpty {
                log("launch").notice("installed at launch: \(adopted.installed.joined(separator: ", "), privacy: .public)")
            }
        }
    }

    /// Waits until the background engine is in use (at once after the first launch's start).
    @MainActor static func engineReady() async {
        await engineStarted?.value
    }

    // MARK: - Periodic refresh

    /// Registers the periodic refresh's handler: before the end of launch, as BGTaskScheduler
    /// requires. (An app whose floor is iOS 16 can use SwiftUI's
    /// `.backgroundTask(.appRefresh(Magazine.refreshTaskIdentifier))` instead; a `Scene`
    /// cannot apply it conditionally on iOS 15.)
    @MainActor static func registerRefresh() {
        // On the main queue: the handler is formed on the main actor and runs there.
        let registered = BGTaskScheduler.shared.register(forTaskWithIdentifier: refreshTaskIdentifier, using: .main) { task in
            refresh(task)
        }
        if !registered { log("refresh").error("\(refreshTaskIdentifier, privacy: .public) is not in Info.plist") }
    }

    /// Asks for the next refresh, not before an hour from now (the system decides when).
    @MainActor static func scheduleRefresh() {
        let request = BGAppRefreshTaskRequest(identifier: refreshTaskIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: 60 * 60)
        do {
            try BGTaskScheduler.shared.submit(request)
        } catch {
            // The simulator, or Background App Refresh turned off in Settings.
            log("refresh").notice("no refresh scheduled: \(String(describing: error), privacy: .public)")
        }
    }

    /// A refresh the system started: refresh the shelf, hand a new issue to the background
    /// engine, and say when it is done. The task object stays on the main actor.
    @MainActor private static func refresh(_ task: BGTask) {
        scheduleRefresh()
        guard case .success(let library) = opened else {
            task.setTaskCompleted(success: false)
            return
        }
        let work = Task {
            await engineReady()
            return await library.performBackgroundFetch()  // answers within newContentDeadline
        }
        // Called when the system's time is up; a @Sendable closure, so it is not bound to the
        // main actor, whichever thread the system calls it on.
        task.expirationHandler = { @Sendable in work.cancel() }
        Task {
            let result = await work.value
            task.setTaskCompleted(success: result != .failed)
        }
    }

    // MARK: - Scene phases

    /// The scenes went to the background, or came back.
    @MainActor static func scenePhaseChanged(to phase: ScenePhase) {
        guard case .success(let library) = opened else { return }
        switch phase {
        case .background:
            scheduleRefresh()
            BackgroundTime.begin(library)
        case .active:
            BackgroundTime.end()
            // An extension may have committed meanwhile (a download it installed, a position).
            Task { try? await library.reload() }
        default:
            break
        }
    }
}

/// The background time iOS gives the downloads the user started in the app. They run in process,
/// where they are fastest; when the time runs out they go on in the background session, which
/// continues their part files with `Range` and `If-Range`.
@MainActor enum BackgroundTime {
    private static var task = UIBackgroundTaskIdentifier.invalid

    static func begin(_ library: IssueLibrary) {
        guard task == .invalid else { return }
        task = UIApplication.shared.beginBackgroundTask(withName: "Newsstand downloads") {
            // On the main thread, shortly before the time is up.
            Task {
                let handed = (try? await library.handDownloadsToBackground()) ?? []
                if !handed.isEmpty {
                    Magazine.log("background").notice("on the background session: \(handed.joined(separator: ", "), privacy: .public)")
                }
                end()
            }
        }
    }

    static func end() {
        guard task != .invalid else { return }
        UIApplication.shared.endBackgroundTask(task)
        task = .invalid
    }
}
