import Foundation
import NewsstandCore

/// This process's background-session engines, one per library, and the system's completion
/// handlers that came for a session before its library made its engine.
///
/// URLSession allows one session per background identifier in a process, and keeps the
/// identifier taken after `finishTasksAndInvalidate()` until the session's last task has ended,
/// so a library closed and opened again in the same process could not open its sessions again
/// (a second session with the identifier gets no events, and the first one's delegate had lost
/// its engine). So an engine, once made, lives as long as the process, as Apple's guides make
/// background sessions (once, at launch), and a library opened again on the same folder attaches
/// to it again. A closed library only stops recording: what the sessions hand over meanwhile
/// waits in `Downloads/` for the next open's reconcile.
final class BackgroundSessionRegistry: Sendable {
    typealias Handler = @Sendable () -> Void

    /// The process's registry.
    static let shared = BackgroundSessionRegistry()

    private struct Entries {
        /// By library: identity and folder.
        var engines: [String: BackgroundSessionEngine] = [:]
        /// Handlers for sessions no engine has yet, by session identifier.
        var parked: [String: [Handler]] = [:]
    }

    private let entries = Locked(Entries())

    /// The engine of the library in `folder` with `settings`: the one this process made before,
    /// else `make()`'s, which takes the handlers that came for its sessions meanwhile.
    func engine(
        for settings: BackgroundSessionEngine.Settings, folder: URL, make: () -> BackgroundSessionEngine
    ) -> BackgroundSessionEngine {
        let key = settings.identity.base + "\u{0}" + folder.path
        let (engine, parked) = entries.withLock { entries -> (BackgroundSessionEngine, [(String, [Handler])]) in
            if let engine = entries.engines[key] { return (engine, []) }
            let engine = make()
            entries.engines[key] = engine
            let identifiers = entries.parked.keys.filter { engine.hasSession($0) }
            return (engine, identifiers.compactMap { id in entries.parked.removeValue(forKey: id).map { (id, $0) } })
        }
        for (identifier, handlers) in parked {
            for handler in handlers { _ = engine.handleEvents(forSession: identifier, completion: handler) }
        }
        return engine
    }

    /// The system's completion handler for the session `identifier`: given to the engine that
    /// has the session, or kept for the one made later (at launch the app delegate is called
    /// before the library opens). Returns false, keeping nothing, when `identifier` is no
    /// library's session (`BackgroundSessionIdentity.isLibrarySession`).
    func handleEvents(forSession identifier: String, completion: @escaping Handler) -> Bool {
        guard BackgroundSessionIdentity.isLibrarySession(identifier) else { return false }
        let engine = entries.withLock { entries -> BackgroundSessionEngine? in
            if let engine = entries.engines.values.first(where: { $0.hasSession(identifier) }) {
                return engine
            }
            entries.parked[identifier, default: []].append(completion)
            return nil
        }
        return engine?.handleEvents(forSession: identifier, completion: completion) ?? true
    }

    /// Forgets `engine` (its sessions were invalidated): the next library on its folder makes
    /// another.
    func remove(_ engine: BackgroundSessionEngine) {
        entries.withLock { entries in entries.engines = entries.engines.filter { $0.value !== engine } }
    }
}
