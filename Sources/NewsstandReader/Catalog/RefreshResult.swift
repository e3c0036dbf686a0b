/// What a refresh changed on the shelf.
public struct RefreshResult: Sendable, Equatable {
    /// The server answered 304: the catalog is unchanged and was not parsed.
    public var notModified = false
    /// Issues new to the library.
    public var added: [String] = []
    /// Known issues whose metadata (title, date, URLs, checksums, cover) changed.
    public var updated: [String] = []
    /// Downloaded issues whose content changed on the server (`Issue.hasUpdate`).
    public var contentUpdates: [String] = []
    /// Issues that left the catalog and were dropped (downloaded ones are kept).
    public var removed: [String] = []
    /// Entries skipped and covers not fetched; the rest of the catalog was used.
    public var problems: [RefreshProblem] = []

    /// Creates an empty result.
    public init() {}

    /// Whether the shelf changed.
    public var hasChanges: Bool {
        !(added.isEmpty && updated.isEmpty && contentUpdates.isEmpty && removed.isEmpty)
    }
}

/// One catalog entry that could not be used fully.
public enum RefreshProblem: Sendable, Equatable {
    /// The entry lacks a key or has a wrong-typed one; it was skipped.
    case badEntry(name: String?, reason: String)
    /// The entry's name is not safe as a file name; it was skipped.
    case unsafeName(String)
    /// The entry's cover or content URL is not a valid URL; it was skipped.
    case badURL(name: String, url: String)
    /// The cover is larger, decoded, than `LibraryConfiguration.maxCoverBytes`; it was not
    /// kept (the issue was still added).
    case coverTooLarge(name: String, url: String, limit: Int64)
    /// The cover could not be downloaded; the issue was still added.
    case coverUnavailable(name: String, url: String, reason: String)
}
