import Foundation

extension IssueLibrary {
    /// The content of an available issue, for the library's scale.
    public func content(of name: String, registry: PageRegistry = .standard) throws(ContentError) -> IssueContent {
        guard let record = state.issues[name], record.status == .available else { throw .notAvailable(issue: name) }
        return try IssueContent(contentsOf: layout.content(of: record.name), scale: scale, registry: registry)
    }

    /// A cursor over an available issue at the position the reader left it (or its start).
    public func cursor(for name: String, registry: PageRegistry = .standard) throws(ContentError) -> IssueCursor {
        let content = try content(of: name, registry: registry)
        return IssueCursor(content: content, position: readingPosition(of: name) ?? .start)
    }

    /// Where the reader left an issue, if anywhere.
    public func readingPosition(of name: String) -> ReadingPosition? {
        state.readingPositions?[name]
    }

    /// Remembers where the reader is in an issue (persisted with the library).
    public func setReadingPosition(_ position: ReadingPosition, of name: String) throws(LibraryError) {
        try checkOpen()
        guard state.issues[name] != nil else { throw .unknownIssue(name: name) }
        state.readingPositions = (state.readingPositions ?? [:]).merging([name: position]) { _, new in new }
        try save()
    }
}
