/// The rows one commit writes: each changed issue, reading position, setting and transfer with the number of
/// the change it is at (`ChangeTracked`), taken on the library's actor and written off it.
struct StateBatch: Sendable {
    /// One row to write, or to delete when `value` is nil.
    struct Row<Value: Sendable>: Sendable {
        var name: String
        var change: UInt64
        var value: Value?
    }

    var issues: [Row<IssueRecord>]
    var positions: [Row<ReadingPosition>]
    var settings: [Row<String>]
    var transfers: [Row<TransferRecord>] = []
    /// The issues whose rows here were changed without their claim: written only while the
    /// issue's revision is the one they were changed from (`ClaimlessWrite`).
    var claimless: [String: ClaimlessWrite] = [:]

    /// Whether there is nothing to write.
    var isEmpty: Bool { issues.isEmpty && positions.isEmpty && settings.isEmpty && transfers.isEmpty }

    /// The claimless changes whose issue has another revision in `stored` than they were made
    /// from, but those made on top of this library's own commits that led to that revision
    /// (`own`, `StateStore.OwnRevisions`) and taken before their outcome reached the library.
    func conflicts(with stored: LibraryState, own: [String: StateStore.OwnRevisions] = [:]) -> Set<String> {
        Set(
            claimless.filter { name, write in
                let now = stored.revisions[name]
                guard write.basis != now else { return false }
                guard let own = own[name], own.last == now, own.chain.contains(write.basis) else { return true }
                return false
            }.keys)
    }

    /// This batch without the issue and transfer rows of `names`.
    func dropping(_ names: Set<String>) -> StateBatch {
        guard !names.isEmpty else { return self }
        var batch = self
        batch.issues.removeAll { names.contains($0.name) }
        batch.transfers.removeAll { names.contains($0.name) }
        for name in names { batch.claimless[name] = nil }
        return batch
    }

    /// Whether writing this batch replaces or deletes the row `problem` names: that row is no
    /// longer the bad one (`IssueLibrary.stateProblems`).
    func rewrites(_ problem: StateError) -> Bool {
        switch problem {
        case .badRow(_, let name, let reason):
            reason.hasPrefix(TransferRow.refusalPrefix)
                ? transfers.contains { $0.name == name } : issues.contains { $0.name == name }
        case .badReadingPosition(_, let issue, _): positions.contains { $0.name == issue }
        case .badSetting(_, let key, _): settings.contains { $0.name == key }
        default: false
        }
    }
}
