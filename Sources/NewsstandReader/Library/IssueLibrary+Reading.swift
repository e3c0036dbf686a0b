import Foundation
import NewsstandCore

extension IssueLibrary {
    /// The content of an available issue, for the scale it was installed at (the library's, or
    /// normal where a retina library fell back to the normal bundle). Reading and decoding the
    /// page config runs on a thread of its own, never on the library's actor or the
    /// cooperative pool (page types of the registry decode there too).
    public func content(of name: String, registry: PageRegistry = .standard) async throws(ContentError) -> IssueContent {
        guard let record = state.issues[name], record.status == .available else { throw .notAvailable(issue: name) }
        return try await IssueContent.read(layout.content(of: name), scale: record.installedScale ?? scale, registry: registry)
    }

    /// A cursor over an available issue at the position the reader left it (or its start): the
    /// issue is opened to be read (`AnalyticsEvent.issueOpened`).
    public func cursor(for name: String, registry: PageRegistry = .standard) async throws(ContentError) -> IssueCursor {
        let content = try await content(of: name, registry: registry)
        configuration.analytics?.record(.issueOpened(name: name))
        return IssueCursor(content: content, position: readingPosition(of: name) ?? .start)
    }

    /// Where the reader left an issue, if anywhere.
    public func readingPosition(of name: String) -> ReadingPosition? {
        state.readingPositions[name]
    }

    /// Remembers where the reader is in an issue (persisted with the library). The commit runs
    /// off the actor and the cooperative pool, after the commits asked before it; when it fails
    /// (another program holds the database locked, the disk is full) the error is thrown and the
    /// position stays unsaved in memory, going with the next commit.
    public func setReadingPosition(_ position: ReadingPosition, of name: String) async throws(LibraryError) {
        try checkOpen()
        guard state.issues[name] != nil else { throw .unknownIssue(name: name) }
        state.readingPositions[name] = position
        try await save()
    }
}
