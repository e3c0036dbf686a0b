import Foundation
import NewsstandReader
import Observation

/// One issue on the shelf, as a SwiftUI view observes it: its value and its download's progress.
/// A progress report changes `progress` of this item only, so only the views that read it are
/// drawn again, not the shelf.
@available(iOS 17, macOS 14, tvOS 17, watchOS 10, *)
@MainActor
@Observable
public final class ShelfItem: Identifiable {
    /// The issue's name, its identity on the shelf.
    public let name: String
    /// The issue as last committed (status, metadata, cover).
    public private(set) var issue: Issue
    /// How far its download has come, while it downloads.
    public private(set) var progress: DownloadProgress?

    /// `name`.
    public nonisolated var id: String { name }

    init(_ issue: Issue) {
        name = issue.name
        self.issue = issue
        progress = Self.progress(of: issue)
    }

    /// Takes the issue's new value (its status's progress with it).
    func update(_ issue: Issue) {
        if self.issue != issue { self.issue = issue }
        let progress = Self.progress(of: issue)
        if self.progress != progress { self.progress = progress }
    }

    /// Takes a progress report.
    func update(_ progress: DownloadProgress) {
        if self.progress != progress { self.progress = progress }
    }

    private static func progress(of issue: Issue) -> DownloadProgress? {
        if case .downloading(let progress) = issue.status { progress } else { nil }
    }
}
