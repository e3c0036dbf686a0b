import Foundation
import NewsstandCore

/// `library.json`, the state file of libraries before `library.sqlite`: read once, to migrate
/// it. It is input from outside like the database: capped in size, every record checked.
enum LegacyState {
    /// The JSON form (format 1): the whole state in one document.
    private struct Document: Decodable {
        var scale: LibraryScale
        var catalogURL: URL?
        var catalogETag: String?
        var catalogLastModified: String?
        var currentlyReading: String?
        var readingPositions: [String: ReadingPosition]?
        var issues: [String: IssueRecord]
    }

    /// The state in `library.json`, or nil when there is none.
    static func load(in folder: OpenFolder) throws(LibraryError) -> LibraryState? {
        let name = StateStore.legacyFileName
        let path = folder.path(of: name)
        guard let kind = folder.kind(of: name) else { return nil }
        guard kind == .regularFile else { throw .stateUnusable(.notARegularFile(path: path, kind: kind.description)) }
        func unreadable(_ reason: String) -> LibraryError { .stateUnusable(.legacyUnreadable(path: path, reason: reason)) }
        let read: Data?
        do {
            read = try folder.file(name).readAll(limit: Int(StateStore.maxLegacyStateBytes))
        } catch {
            throw unreadable(error.reason)
        }
        guard let data = read else { throw unreadable("larger than \(StateStore.maxLegacyStateBytes) bytes") }
        let document: Document
        do {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            document = try decoder.decode(Document.self, from: data)
        } catch {
            throw unreadable("not a library state: \(error)")
        }
        guard document.issues.count <= StateStore.maxIssues else {
            throw .stateUnusable(.tooManyIssues(path: path, limit: StateStore.maxIssues))
        }
        var state = LibraryState(scale: document.scale)
        state.catalogURL = document.catalogURL
        state.catalogETag = document.catalogETag
        state.catalogLastModified = document.catalogLastModified
        state.currentlyReading = document.currentlyReading
        for (key, record) in document.issues {
            // The same rules as a database row: the name is a file name in Issues/ and Covers/.
            guard key == record.name, IssueName.isSafe(record.name),
                record.coverFileName.map(IssueName.isSafe) ?? true
            else {
                throw .stateUnusable(.badRow(path: path, name: key, reason: "the name or cover file is not a safe file name"))
            }
            var migrated = record
            // Before the retina fallback, an installed bundle was always the library's scale.
            if migrated.status == .available, migrated.installedScale == nil { migrated.installedScale = document.scale }
            if migrated.coverFileName != nil, migrated.cachedCoverScale == nil { migrated.cachedCoverScale = document.scale }
            state.issues[key] = migrated
        }
        for (name, position) in document.readingPositions ?? [:] { state.readingPositions[name] = position }
        return state
    }
}
