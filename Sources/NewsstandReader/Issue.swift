import Foundation
import NewsstandCore

/// One issue on the shelf: catalog metadata for the library's scale, local locations and status.
/// A value: ask the library again to see later changes.
public struct Issue: Sendable, Equatable, Identifiable {
    /// The issue's permanent key (the catalog's `Name`).
    public var name: String
    /// The title shown on the shelf.
    public var title: String
    /// The publication date; the shelf is ordered by it, newest first.
    public var date: Date
    /// A short description, when the catalog gives one.
    public var summary: String?
    /// The App Store product identifier, for paid issues.
    public var productID: String?
    /// Whether the catalog sells the issue (`Access`): a paid one downloads only through the
    /// configuration's `AccessProvider`.
    public var access: IssueAccess = .free
    /// The cover image on the server, for the library's scale.
    public var remoteCoverURL: URL
    /// The bundle on the server, for the library's scale.
    public var remoteContentURL: URL
    /// The bundle's size in bytes, when the catalog gives it.
    public var contentSize: Int?
    /// The bundle's SHA-256 (lowercase hex), when the catalog gives it.
    public var contentSHA256: String?
    /// Download state.
    public var status: IssueStatus
    /// Whether the catalog now lists different content than what was downloaded.
    public var hasUpdate: Bool
    /// Whether the last catalog still lists the issue (a downloaded issue stays when it leaves).
    public var isInCatalog: Bool
    /// The local folder the bundle is unpacked into (it exists only when `status` is available).
    public var contentURL: URL
    /// The cached cover image, once it has been downloaded.
    public var coverFileURL: URL?

    /// The scale of the downloaded content, when available: the library's, or `.normal` in a
    /// retina library whose catalog entry had no retina keys and whose `@2x` bundle answered 404
    /// or 410 (the library then installed the normal bundle).
    public var installedScale: LibraryScale?
    /// The scale of the cached cover (`.normal` in a retina library that fell back), when cached.
    public var coverScale: LibraryScale?

    /// For an issue with an update (`hasUpdate`): the bytes updating it by ranges will fetch, as
    /// measured at the last refresh; nil when it will be a full download of `contentSize` bytes
    /// (no index in the catalog, or the change is over half the bundle).
    public var updateBytes: Int64?

    /// `name`, the key the library looks issues up by.
    public var id: String { name }
}
