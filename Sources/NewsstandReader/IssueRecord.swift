import Foundation

/// What the library persists about one issue. Local paths are not stored (an app's container
/// moves between launches); they are derived from the library folder.
struct IssueRecord: Codable, Equatable, Sendable {
    var name: String
    var title: String
    var date: Date
    var summary: String?
    var productID: String?
    var remoteCoverURL: URL
    var remoteContentURL: URL
    var contentSize: Int?
    var contentSHA256: String?
    var coverSHA256: String?
    var status: IssueStatus
    var hasUpdate: Bool
    var isInCatalog: Bool
    /// The cached cover's file name in `Covers/`, and the URL and checksum it was fetched for.
    var coverFileName: String?
    var cachedCoverURL: URL?
    var cachedCoverSHA256: String?
    /// The SHA-256 of the bundle that was unpacked, to notice content updates.
    var installedSHA256: String?
    /// The remote URL of the bundle that was unpacked.
    var installedContentURL: URL?

    func issue(in layout: LibraryLayout) -> Issue {
        Issue(
            name: name, title: title, date: date, summary: summary, productID: productID,
            remoteCoverURL: remoteCoverURL, remoteContentURL: remoteContentURL, contentSize: contentSize,
            contentSHA256: contentSHA256, status: status, hasUpdate: hasUpdate, isInCatalog: isInCatalog,
            contentURL: layout.content(of: name),
            coverFileURL: coverFileName.map { layout.covers.appendingPathComponent($0) })
    }
}
