import Foundation

extension IssueLibrary {
    /// Follows the shelf, for an app's model (`ShelfModel` in `NewsstandReaderObservation`, or an
    /// `ObservableObject` of the app's): the issues as they are now, newest first, and from then on
    /// the updates: each committed change as the new value of the one issue it touched, each
    /// progress report as one value (`ShelfUpdate`), never a copy of the whole shelf. Nothing is
    /// lost between the snapshot and the first update: both are taken in one step on the actor.
    public func followShelf() -> (issues: [Issue], updates: ShelfUpdates) {
        let updates = ShelfUpdates()
        if !isClosed {
            shelfFollowers.removeAll { $0.isFinished }
            shelfFollowers.append(updates)
        } else {
            updates.finish()
        }
        return (issues, updates)
    }

    /// Tells the followers about the issues a commit wrote or deleted.
    func tellFollowers(committed batch: StateBatch) {
        shelfFollowers.removeAll { $0.isFinished }
        guard !shelfFollowers.isEmpty, !batch.issues.isEmpty else { return }
        var update = ShelfUpdate()
        for name in batch.issues.map(\.name) {
            if let record = state.issues[name] {
                update.changed[name] = shelfIssue(record)
            } else {
                update.removed.insert(name)
            }
        }
        for follower in shelfFollowers { follower.send(update) }
    }

    /// Tells the followers about one issue whose shelf value changed without a commit.
    func tellFollowers(changed name: String) {
        guard !shelfFollowers.isEmpty, let record = state.issues[name] else { return }
        let update = ShelfUpdate(changed: [name: shelfIssue(record)])
        for follower in shelfFollowers { follower.send(update) }
    }

    /// Tells the followers how far a download has come.
    func tellFollowers(progress: DownloadProgress, of name: String) {
        guard !shelfFollowers.isEmpty else { return }
        let update = ShelfUpdate(progress: [name: progress])
        for follower in shelfFollowers { follower.send(update) }
    }

    /// A stream of progress and status changes, for an app's UI. Each call makes a new stream.
    public func events() -> AsyncStream<LibraryEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: LibraryEvent.self, bufferingPolicy: .bufferingNewest(512))
        let id = UUID()
        observers[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeObserver(id) } }
        return stream
    }

    private func removeObserver(_ id: UUID) { observers[id] = nil }

    /// Hands `event` to every stream of `events()`.
    func emit(_ event: LibraryEvent) {
        for continuation in observers.values { continuation.yield(event) }
    }
}
