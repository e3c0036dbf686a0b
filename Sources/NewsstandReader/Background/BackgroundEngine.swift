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
    case urlSession(bundleIdentifier: String, sharedContainerIdentifier: String? = nil)
    /// An engine of the app's own, or the command line's aria2 engine (`NewsstandAria2`). One
    /// that keeps files of its own keeps them in a folder of its name in
    /// `IssueLibrary.enginesFolder`, which the library creates and never sweeps.
    case custom(any TransferEngine)

    /// The engine, for the library in `layout` whose downloads are at `scale`.
    func make(for layout: LibraryLayout, scale: LibraryScale, maxUnstatedBytes: Int64, log: LibraryLog) -> any TransferEngine {
        switch self {
        case .urlSession(let bundleIdentifier, let sharedContainerIdentifier):
            let settings = BackgroundSessionEngine.Settings(
                identity: BackgroundSessionIdentity(bundleIdentifier: bundleIdentifier, libraryFolder: layout.folder),
                sharedContainerIdentifier: sharedContainerIdentifier, maxUnstatedBytes: maxUnstatedBytes,
                log: { log(.info, $0) })
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
