/// Where an issue is in its life on this device, in more detail than `IssueStatus` (which
/// keeps Newsstand Kit's three values): what a shelf shows next to an issue.
public enum IssuePhase: String, Sendable, Equatable, CaseIterable, Codable {
    /// Not downloaded (or removed), and no download asked.
    case notInstalled
    /// A download was asked and waits: for a free slot, for the network its policy allows, or
    /// for the background engine to begin.
    case queued
    /// Bytes are arriving (in this process or in a background engine).
    case transferring
    /// The whole bundle is in the library's `Downloads/`, waiting to be verified and unpacked.
    case received
    /// Being verified and unpacked.
    case installing
    /// Downloaded and readable, and the catalog lists no other content.
    case installed
    /// Downloaded and readable, and the catalog lists new content (`Issue.hasUpdate`).
    case updateAvailable
    /// Downloaded and readable while its new content is being fetched or installed.
    case updating
    /// Its content is being removed.
    case removing
    /// Not downloaded: the last download failed (`Issue.lastError` says why); it can be asked again.
    case failed
}

/// Who asked for a download: the user (a tap), or the app on its own (a push, a background
/// fetch, Background Assets). Automatic downloads may wait for a good network
/// (`isDiscretionary`) and are the first to give way.
public enum TransferIntent: String, Sendable, Equatable, Codable, CaseIterable {
    /// The user asked: run it as soon as the policy allows.
    case user
    /// The app asked on its own.
    case automatic
}

/// Which engine runs a transfer (saved with it, so that a relaunched app asks the right one).
public enum TransferEngineKind: String, Sendable, Equatable, Codable, CaseIterable {
    /// In this process, on the configured `HTTPTransport`: into a `.part` file, resumed with
    /// `Range` + `If-Range`. Stops when the process does.
    case inProcess
    /// Outside the process: an Apple background `URLSession`, or aria2 on Linux. Goes on while
    /// the app is suspended or killed.
    case background
}
