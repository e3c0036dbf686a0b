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

    /// Whether there is nothing to write.
    var isEmpty: Bool { issues.isEmpty && positions.isEmpty && settings.isEmpty && transfers.isEmpty }

    /// The names of the issues whose rows it writes or deletes.
    var issueNames: [String] { issues.map(\.name) }
}
