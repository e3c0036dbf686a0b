import Foundation
import NewsstandCore

extension IssueLibrary {
    /// Puts a staged version (`ContentSwap.stage`) in place as `name`'s content: records bundle
    /// `sha256` from `source` as installed and saves the state (the swap's commit point), then
    /// swaps the folders to it (`ContentSwap.settle`). Returns the record as saved.
    ///
    /// A save that fails puts the record back and leaves the staged folder: the next open (or
    /// the next swap) settles the folders by whatever the state file then says. A swap that
    /// fails after the save puts the record back and the folders with it; if that save fails
    /// too, the next open finishes the swap from the saved record. Either way no folder holds a
    /// mix, and the content is the version the saved record names.
    ///
    /// The caller holds the issue's claim; one it lost meanwhile (its lease ran out while the
    /// process was suspended, and another owner took the issue) commits nothing: `issueBusy`.
    func commitStaged(_ name: String, sha256: String, source: BundleSource) async -> Result<IssueRecord, LibraryError> {
        // A read of the claim's row: off the actor, which must not wait for the connection.
        let claims = claims
        guard await BlockingWork.run({ claims.holds(name) }) else { return .failure(.issueBusy(name: name)) }
        guard let previous = state.issues[name], let before = lifecycle(of: name) else {
            return .failure(.unknownIssue(name: name))
        }
        state.apply(.staged(InstalledContent(sha256: sha256, contentURL: source.url, scale: source.scale)), to: name)
        state.issues[name]?.updateBytes = nil
        guard let current = state.issues[name] else { return .failure(.unknownIssue(name: name)) }
        do {
            try await save()
        } catch {
            state.issues[name] = previous
            return .failure(error)
        }
        if let failure = await settle(name, recorded: sha256) {
            log("\(name): the new version could not be swapped in: \(failure)")
            guard state.issues[name] != nil else {
                return .failure(.fileSystem(path: failure.path, reason: failure.reason))
            }
            state.apply(.swapUndone(previous: before.installed, hadUpdate: before.hasUpdate), to: name)
            state.issues[name]?.updateBytes = previous.updateBytes
            if (try? await save()) != nil {
                _ = await settle(name, recorded: previous.status == .available ? previous.installedSHA256 : nil)
            }
            return .failure(.fileSystem(path: failure.path, reason: failure.reason))
        }
        // Whichever way it came, a streamed download's checked entries are of no use now.
        await discardStream(LibraryLayout.partFileName(of: name, scale: state.scale))
        return .success(current)
    }

    /// `ContentSwap.settle` on a thread of its own; the error, if any.
    func settle(_ name: String, recorded: String?) async -> FileSystemError? {
        let layout = layout
        return await BlockingWork.run { () -> FileSystemError? in
            do throws(FileSystemError) {
                try ContentSwap.settle(name, recorded: recorded, in: OpenFolder.open(layout.issues), layout: layout)
                return nil
            } catch {
                return error
            }
        }
    }
}
