import Foundation

/// Which engine runs a library's background downloads (`IssueLibrary.useBackgroundEngine(_:)`):
/// downloads that go on while the app is suspended, crashed or killed, and that a relaunched
/// process adopts.
public enum BackgroundEngine: Sendable {
    /// Background `URLSession`s (Apple platforms: the system runs the transfers and relaunches
    /// the app with their events, `IssueLibrary.handleEventsForBackgroundSession`). Their
    /// identifiers are `<bundleIdentifier>.newsstand.<library folder's name>` (and
    /// `….automatic` for what the app fetches on its own); `sharedContainerIdentifier` is the
    /// app group an app extension's transfers land in. On Linux, FoundationNetworking has no
    /// background sessions: the same code runs in process.
    ///
    /// `extensionBundleIdentifiers`: the app extensions that start downloads of their own on
    /// this library (a Notification Service Extension downloading the issue a push announces,
    /// with `.urlSession(bundleIdentifier: <the extension's>, sharedContainerIdentifier: <the
    /// group>)`). The app opens their sessions too and adopts what they started: the system wakes
    /// the app, not the extension, with those sessions' events. Other extensions (widgets, share
    /// extensions) read the shelf with `LibraryReader` and start nothing.
    case urlSession(bundleIdentifier: String, sharedContainerIdentifier: String? = nil, extensionBundleIdentifiers: [String] = [])
    /// An engine of the app's own, or the command line's aria2 engine (`NewsstandAria2`). One
    /// that keeps files of its own keeps them in a folder of its name in
    /// `IssueLibrary.enginesFolder`, which the library creates and never sweeps.
    case custom(any TransferEngine)

    /// The engine, for the library in `layout` whose downloads are at `scale`.
    func make(for layout: LibraryLayout, scale: LibraryScale, configuration: LibraryConfiguration) -> any TransferEngine {
        switch self {
        case .urlSession(let bundleIdentifier, let sharedContainerIdentifier, let extensions):
            let log = configuration.log
            var settings = BackgroundSessionEngine.Settings(
                identity: BackgroundSessionIdentity(bundleIdentifier: bundleIdentifier, libraryFolder: layout.folder),
                sharedContainerIdentifier: sharedContainerIdentifier, maxUnstatedBytes: configuration.maxUnstatedBundleBytes,
                log: { log(.info, $0) })
            settings.adoptedIdentities = extensions.filter { $0 != bundleIdentifier }.map {
                BackgroundSessionIdentity(bundleIdentifier: $0, libraryFolder: layout.folder)
            }
            settings.connectionsPerHost = max(1, configuration.maxConcurrentDownloads)
            // One engine per library in a process, kept across a close (`BackgroundSessionRegistry`).
            // A task handed over by a foreground download continues its part file: the one the
            // in-process download of the same issue writes.
            return BackgroundSessionRegistry.shared.engine(for: settings, folder: layout.folder) {
                BackgroundSessionEngine(settings: settings) { id in layout.part(of: id.name, scale: scale) }
            }
        case .custom(let engine):
            return engine
        }
    }
}
