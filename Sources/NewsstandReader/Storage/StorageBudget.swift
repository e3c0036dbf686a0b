/// Which downloaded issues the storage policy removes: the oldest ones past the count limit
/// (`maxDownloadedIssues`) or the byte budget (`maxStorageBytes`), never one it must keep (the
/// issue being read, one just downloaded, one another process is working on). A rule on names
/// and sizes only, the same on every platform.
struct StorageBudget: Sendable, Equatable {
    var maxIssues: Int?
    var maxBytes: Int64?

    /// One downloaded issue and what its content takes.
    struct Issue: Sendable, Equatable {
        var name: String
        var bytes: Int64
    }

    /// The issues to remove, oldest first, from `downloaded` (newest first).
    func removals(from downloaded: [Issue], keeping kept: Set<String>) -> [String] {
        var count = downloaded.count
        var bytes = downloaded.reduce(Int64(0)) { $0 + $1.bytes }
        var removed: [String] = []
        for issue in downloaded.reversed() where isOver(count: count, bytes: bytes) {
            guard !kept.contains(issue.name) else { continue }
            removed.append(issue.name)
            count -= 1
            bytes -= issue.bytes
        }
        return removed
    }

    private func isOver(count: Int, bytes: Int64) -> Bool {
        if let maxIssues, count > max(0, maxIssues) { return true }
        if let maxBytes, bytes > max(0, maxBytes) { return true }
        return false
    }
}
