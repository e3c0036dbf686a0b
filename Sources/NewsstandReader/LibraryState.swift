import Foundation

/// Everything the library persists, in one JSON file written atomically after every change.
struct LibraryState: Codable, Equatable, Sendable {
    var formatVersion = 1
    var scale: LibraryScale
    var catalogURL: URL?
    /// Validators of the last catalog response, for a conditional GET.
    var catalogETag: String?
    var catalogLastModified: String?
    var currentlyReading: String?
    /// Where the reader left each issue (optional so that older state files still load).
    var readingPositions: [String: ReadingPosition]?
    var issues: [String: IssueRecord] = [:]

    init(scale: LibraryScale) { self.scale = scale }
}
