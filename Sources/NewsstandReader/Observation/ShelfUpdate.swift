/// What changed on the shelf since the last update a follower took (`IssueLibrary.shelfUpdates()`):
/// the new value of each issue that changed, the issues that left, and the latest progress of
/// each running download. Updates a slow follower has not taken yet are merged into one, so it
/// never falls behind by more than one update, and a progress report costs one value, not a copy
/// of the shelf.
public struct ShelfUpdate: Sendable, Equatable {
    /// Issues whose values changed (status, metadata, cover), by name: the latest value of each.
    public var changed: [String: Issue] = [:]
    /// Issues that left the shelf.
    public var removed: Set<String> = []
    /// The latest progress of downloads that made some, by name.
    public var progress: [String: DownloadProgress] = [:]
    /// Another writer (an extension, another process) changed the state: the shelf may differ in
    /// any row, so take a new snapshot (`IssueLibrary.issues`) instead of applying the rest.
    public var needsSnapshot = false

    /// An update holding these changes.
    public init(
        changed: [String: Issue] = [:], removed: Set<String> = [], progress: [String: DownloadProgress] = [:],
        needsSnapshot: Bool = false
    ) {
        self.changed = changed
        self.removed = removed
        self.progress = progress
        self.needsSnapshot = needsSnapshot
    }

    /// Whether it holds nothing.
    public var isEmpty: Bool { changed.isEmpty && removed.isEmpty && progress.isEmpty && !needsSnapshot }

    /// `later` applied on top of this update: a later value of an issue replaces an earlier one,
    /// a removal replaces a change and the other way round.
    public mutating func merge(_ later: ShelfUpdate) {
        for (name, issue) in later.changed {
            changed[name] = issue
            removed.remove(name)
        }
        for name in later.removed {
            removed.insert(name)
            changed[name] = nil
            progress[name] = nil
        }
        progress.merge(later.progress) { _, newer in newer }
        needsSnapshot = needsSnapshot || later.needsSnapshot
    }
}
