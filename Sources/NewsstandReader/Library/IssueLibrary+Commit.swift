import Foundation
import NewsstandCore

extension IssueLibrary {
    /// Commits every unsaved change: the rows are taken here, on the actor, and written off it by
    /// the `CommitQueue` (in the order asked), under the writer lock. A change made while the
    /// commit runs goes with the next one; a failed commit forgets nothing (its rows stay unsaved
    /// and go with the next commit) and throws. What other writers committed meanwhile is merged
    /// in before this returns.
    func save() async throws(LibraryError) {
        guard !isStoreClosed else { throw .libraryClosed(path: folder.path) }
        let batch = state.pendingChanges
        guard !batch.isEmpty else { return }
        let store = store
        let result = await commits.run(
            { () -> Result<StateStore.CommitOutcome, LibraryError> in
                Result { () throws(LibraryError) in try store.commit(batch) }
            }, then: { result in await self.applyCommit(result, batch: batch) })
        if case .failure(let error) = result { throw error }
    }

    /// Takes in a commit's outcome, on the actor, before the next commit starts: the order the
    /// commits ran in is the order their outcomes are applied in. The batch is marked committed
    /// before the tables are merged: what it wrote is then no unsaved change that a merge would
    /// judge against the rows it was made from.
    private func applyCommit(_ result: Result<StateStore.CommitOutcome, LibraryError>, batch: StateBatch) {
        switch result {
        case .failure(let error):
            log(.error, "commit of \(batch.issues.count) issue rows failed: \(error)")
        case .success(let outcome):
            state.markCommitted(batch, revised: outcome.revised)
            if let stored = outcome.stored {
                takeIn(stored, dropped: outcome.dropped)
            } else {
                stateProblems.removeAll { batch.rewrites($0) }
            }
            tellFollowers(committed: batch)
        }
    }

    /// Merges what other writers committed since this library's last transaction, if anything
    /// (a read, no lock); called before an operation that changes records, so that it starts
    /// from the rows as they are. A failure to read is logged: the operation goes on from the
    /// rows in memory, and its commit merges again.
    func synchronize() async {
        do {
            try await reload()
        } catch {
            log(.error, "the state could not be read again: \(error)")
        }
    }

    /// Brings the shelf in memory up to what other processes (an app extension with its own
    /// `IssueLibrary`, a second `newsstand library`) committed since this library last read or
    /// wrote the state, keeping this library's own unsaved changes on top. Commits merge on
    /// their own; an app calls this when it comes back to the foreground.
    public func reload() async throws(LibraryError) {
        guard !isStoreClosed else { return }
        let store = store
        let result = await commits.run(
            { () -> Result<LoadedState?, LibraryError> in
                Result { () throws(LibraryError) in try store.reloadIfChanged() }
            },
            then: { result in
                if case .success(let stored?) = result { await self.takeIn(stored, dropped: []) }
            })
        if case .failure(let error) = result { throw error }
    }

    /// Puts another writer's rows under this library's unsaved changes. A claimless change
    /// (`ClaimlessWrite`) that a commit left out (`dropped`) or whose issue has another revision
    /// in them gives way to them, and its issue's status is told again.
    private func takeIn(_ stored: LoadedState, dropped: Set<String>) {
        let given = dropped.union(state.merge(stored.state))
        for name in given.sorted() {
            log(.debug, "\(name): an engine event's change gave way to another writer's commit")
            emit(.statusChanged(name: name, state.issues[name]?.status ?? .none))
            tellFollowers(changed: name)
        }
        stateProblems = stored.problems
        for problem in stored.problems { log(.error, "a row of the state is left out: \(problem)") }
        log(.debug, "took in another writer's commits")
        for follower in shelfFollowers { follower.send(ShelfUpdate(needsSnapshot: true)) }
    }
}
