import Foundation
import NewsstandCore

extension IssueLibrary {
    /// Removes an issue's downloaded content and any partial download; its status goes back to
    /// none. An issue that has left the catalog disappears from the shelf entirely.
    public func remove(_ name: String) async throws(LibraryError) {
        try checkOpen()
        guard state.issues[name] != nil else { throw .unknownIssue(name: name) }
        await cancelDownload(name)
        let doomed = try removeContent(of: name)
        try save()
        // The content was renamed aside; deleting a large tree takes a while: on a thread of
        // its own, not the actor (the shelf stays usable) or the cooperative pool.
        if let doomed { await delete(doomed, of: name) }
    }

    /// Deletes a content folder renamed aside (`removeContent`); a crash before the end leaves a
    /// leftover that the next open removes.
    func delete(_ doomed: String, of name: String) async {
        let issues = layout.issues
        let log = configuration.log
        await BlockingWork.run {
            do {
                try OpenFolder.open(issues).removeTree(doomed)
                log?("newsstand-reader: removed the content of \(name)")
            } catch {
                log?("newsstand-reader: the content of \(name) was not removed yet: \(error)")
            }
        }
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
            if let doomed = try removeContent(of: record.name) {
                // Not waited for (this is not async); the rename already took it off the shelf.
                let name = record.name
                Task { await delete(doomed, of: name) }
            }
            removed.append(record.name)
            excess -= 1
        }
        if !removed.isEmpty {
            log("storage policy removed \(removed.joined(separator: ", "))")
            try save()
        }
        return removed
    }

    /// Takes the content folder of `name` off the shelf (renamed aside: the caller deletes it
    /// off the actor), deletes its partial download and updates its record (not saved: the
    /// caller saves once). Returns the name the content was renamed to, if there was content.
    private func removeContent(of name: String) throws(LibraryError) -> String? {
        guard var record = state.issues[name] else { return nil }
        let content = layout.content(of: name)
        var doomed: String?
        do {
            let issues = try OpenFolder.open(layout.issues)
            if issues.kind(of: name) != nil {
                // Rename first: a crash during the delete leaves a leftover that open removes,
                // not a half-deleted issue that looks available.
                let aside = layout.temporaryContent(of: name).lastPathComponent
                try issues.rename(name, to: aside)
                doomed = aside
            }
        } catch {
            throw .fileSystem(path: content.path, reason: error.reason)
        }
        PartMetadata.discard(part: layout.part(of: name, scale: state.scale))
        record.status = .none
        record.hasUpdate = false
        record.installedSHA256 = nil
        record.installedContentURL = nil
        record.installedScale = nil
        if state.currentlyReading == name { state.currentlyReading = nil }
        if record.isInCatalog {
            state.issues[name] = record
        } else {
            if let cover = record.coverFileName { layout.removeCover(cover) }
            state.issues[name] = nil
        }
        emit(.statusChanged(name: name, .none))
        return doomed
    }
}
