import Foundation

/// The identifiers of one library's background sessions. URLSession knows a background session
/// by its identifier alone: a relaunched app gets its transfers back by opening a session with
/// the same one, so it must be stable (the app's bundle identifier and the library folder's
/// name, never a path: iOS moves an app's container when it is updated) and unique to the app
/// or extension that opens it (each has its own bundle identifier, and two processes must never
/// open one session).
///
/// `isDiscretionary` is a session's setting, not a task's, so a library has two sessions: one
/// for what the user asked (`base`) and one for what the app fetches on its own, which the
/// system may hold for a good network and power (`base.automatic`).
struct BackgroundSessionIdentity: Sendable, Hashable {
    /// The user lane's identifier; the automatic lane adds `.automatic`.
    let base: String

    /// The identity whose user lane is `base` (not empty).
    init(base: String) {
        self.base = base.isEmpty ? "newsstand" : base
    }

    /// The identity of the library in `libraryFolder` for the app or extension with
    /// `bundleIdentifier` (nil in a command-line program): `<bundle>.newsstand.<folder name>`,
    /// with any character but letters, digits, `.`, `-` and `_` written as `-`.
    init(bundleIdentifier: String?, libraryFolder: URL) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        let folder = String(libraryFolder.standardizedFileURL.lastPathComponent.map { allowed.contains($0) ? $0 : "-" })
        let bundle = bundleIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? "newsstand"
        self.init(base: "\(bundle).newsstand.\(folder.isEmpty ? "library" : folder)")
    }

    /// The marker in every library session's identifier.
    static let marker = ".newsstand."

    /// Whether `identifier` names a library's session: `<bundle>.newsstand.<folder>`, where the
    /// bundle is this app's or one of its extensions' (whose identifiers start with the app's).
    /// Without a bundle identifier (a command-line program, the tests), any such identifier.
    static func isLibrarySession(_ identifier: String, appBundleIdentifier: String? = Bundle.main.bundleIdentifier) -> Bool {
        guard let marker = identifier.range(of: Self.marker) else { return false }
        guard let app = appBundleIdentifier, !app.isEmpty else { return true }
        let bundle = identifier[..<marker.lowerBound]
        return bundle == app || bundle.hasPrefix(app + ".")
    }

    /// The session identifier of `lane`.
    func identifier(of lane: BackgroundSessionLane) -> String {
        switch lane {
        case .user: base
        case .automatic: base + ".automatic"
        }
    }

    /// The lane `identifier` names, or nil when it is no session of this library (another
    /// library's, an extension's).
    func lane(of identifier: String) -> BackgroundSessionLane? {
        BackgroundSessionLane.allCases.first { self.identifier(of: $0) == identifier }
    }
}

/// One background session an engine has open: its identifier and its lane. An app's engine has
/// its own two, and the two of each app extension it adopts (`extensionBundleIdentifiers`).
struct BackgroundSessionSlot: Sendable, Hashable {
    let identifier: String
    let lane: BackgroundSessionLane

    /// The session of `identity` for `lane`.
    init(_ identity: BackgroundSessionIdentity, _ lane: BackgroundSessionLane) {
        identifier = identity.identifier(of: lane)
        self.lane = lane
    }
}

/// Which of a library's two background sessions a transfer runs in.
enum BackgroundSessionLane: String, CaseIterable, Sendable {
    /// What the user asked for: as soon as the network policy allows.
    case user
    /// What the app fetches on its own (a push, a background fetch): the session is
    /// discretionary, so the system may wait for Wi-Fi and power.
    case automatic

    /// The lane of a job asked with `intent`.
    init(_ intent: TransferIntent) {
        self = intent == .user ? .user : .automatic
    }
}
