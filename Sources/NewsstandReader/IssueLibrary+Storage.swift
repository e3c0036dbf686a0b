import Foundation
import NewsstandCore

extension IssueLibrary {
    /// Removes an issue's downloaded content and any partial download; its status goes back to
    /// none. An issue that has left the catalog disappears from the shelf entirely.
    public func remove(_ name: String) async throws(LibraryError) {
        try checkOpen()
        guard state.issues[name] != nil else { throw .unknownIssue(name: name) }
        await cancelDownload(name)
        try removeContent(of: name)
        try save()
    }

    /// Applies `LibraryConfiguration.maxDownloadedIssues`: removes the oldest downloaded issues
    /// beyond the limit, never the one being read. Returns the names removed.
    @discardableResult
    public func applyStoragePolicy() throws(LibraryError) -> [String] {
        try applyStoragePolicy(protecting: [])
    }

    func applyStoragePolicy(protecting protected: Set<String>) throws(LibraryError) -> [String] {
        guard let limit = configuration.maxDownloadedIssues else { return [] }
        let downloaded = IssueOrder.sorted(state.issues.values.filter { $0.status == .available }) { ($0.date, $0.name) }
        var excess = downloaded.count - max(0, limit)
        guard excess > 0 else { return [] }
        var removed: [String] = []
        for record in downloaded.reversed() where excess > 0 {
            if record.name == state.currentlyReading || protected.contains(record.name) { continue }
            try removeContent(of: record.name)
            removed.append(record.name)
            excess -= 1
        }
        if !removed.isEmpty {
            log("storage policy removed \(removed.joined(separator: ", "))")
            try save()
        }
        return removed
    }

    /// Deletes the content folder and partial download of `name` and updates its record
    /// (not saved: the caller saves once).
    private func removeContent(of name: String) throws(LibraryError) {
        guard var record = state.issues[name] else { return }
        let content = layout.content(of: name)
        do {
            let issues = try OpenFolder.open(layout.issues)
            if issues.kind(of: name) != nil {
                // Rename first: a crash during the delete leaves a leftover that open removes,
                // not a half-deleted issue that looks available.
                let doomed = layout.temporaryContent(of: name).lastPathComponent
                try issues.rename(name, to: doomed)
                try? issues.removeTree(doomed)
            }
        } catch {
            throw .fileSystem(path: content.path, reason: error.reason)
        }
        PartMetadata.discard(part: layout.part(of: name, scale: state.scale))
        record.status = .none
        record.hasUpdate = false
        record.installedSHA256 = nil
        record.installedContentURL = nil
        if state.currentlyReading == name { state.currentlyReading = nil }
        if record.isInCatalog {
            state.issues[name] = record
        } else {
            if let cover = record.coverFileName { layout.removeCover(cover) }
            state.issues[name] = nil
        }
        emit(.statusChanged(name: name, .none))
    }
}
