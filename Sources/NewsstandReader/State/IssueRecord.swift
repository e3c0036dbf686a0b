import Foundation
import NewsstandCore

/// What the library persists about one issue. Local paths are not stored (an app's container
/// moves between launches); they are derived from the library folder.
struct IssueRecord: Codable, Equatable, Sendable {
    var name: String
    var title: String
    var date: Date
    var summary: String?
    var productID: String?
    /// Whether the catalog sells the issue: a paid one is fetched through the `AccessProvider`.
    /// Optional only so that a `library.json` from before issue 24 decodes (nil: free).
    var access: IssueAccess?
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
    /// The scale of the bundle that was unpacked (a retina library may have fallen back to normal).
    var installedScale: LibraryScale?
    /// The scale of the cached cover.
    var cachedCoverScale: LibraryScale?
    /// A retina library's normal-scale files for an entry without retina keys.
    var fallback: NormalScaleFallback?
    /// The `@2x` bundle URL that answered 404 or 410: while it is still the catalog's, downloads
    /// fetch the fallback's bundle (a new URL tries `@2x` again).
    var missingRetinaContentURL: URL?
    /// The index of the catalog's bundle for the library's scale (`ContentIndex`), with the size
    /// and SHA-256 the catalog gives for it: what an update by ranges starts from.
    var contentIndexURL: URL?
    var contentIndexSize: Int?
    var contentIndexSHA256: String?
    /// What updating the installed content by ranges will fetch, in bytes, measured at the last
    /// refresh from the new index and the installed one (nil: not known, a full download).
    var updateBytes: Int64?

    /// The bundle a download fetches, with what it is checked against and its scale.
    func bundleSource(scale: LibraryScale) -> BundleSource {
        if let fallback, missingRetinaContentURL == remoteContentURL {
            return BundleSource(
                url: fallback.contentURL, size: fallback.contentSize, sha256: fallback.contentSHA256, scale: .normal)
        }
        return BundleSource(url: remoteContentURL, size: contentSize, sha256: contentSHA256, scale: scale)
    }

    /// Whether the catalog now lists other content than the content unpacked: by checksum when
    /// both are known, by URL otherwise (either scale's, for a library that fell back).
    var catalogHasNewContent: Bool {
        guard status == .available, let installedContentURL else { return false }
        let usedFallback = fallback != nil && installedScale == .normal && installedContentURL != remoteContentURL
        let expected = usedFallback ? fallback?.contentSHA256 : contentSHA256
        if let expected, let installedSHA256 { return expected != installedSHA256 }
        return installedContentURL != (usedFallback ? fallback?.contentURL : remoteContentURL)
    }

    /// Whether the bundle `row` transfers is the one installed: its install was committed.
    func hasInstalled(_ row: TransferRecord) -> Bool {
        status == .available && row.expectedSHA256 != nil && installedSHA256 == row.expectedSHA256
    }

    func issue(in layout: LibraryLayout) -> Issue {
        Issue(
            name: name, title: title, date: date, summary: summary, productID: productID, access: access ?? .free,
            remoteCoverURL: remoteCoverURL, remoteContentURL: remoteContentURL, contentSize: contentSize,
            contentSHA256: contentSHA256, status: status, hasUpdate: hasUpdate, isInCatalog: isInCatalog,
            contentURL: layout.content(of: name),
            coverFileURL: coverFileName.map { layout.covers.appendingPathComponent($0) },
            installedScale: status == .available ? installedScale : nil,
            coverScale: coverFileName == nil ? nil : cachedCoverScale,
            updateBytes: hasUpdate ? updateBytes : nil)
    }
}

/// One bundle to download: where, what it is checked against, and the scale it is for.
struct BundleSource: Equatable, Sendable {
    var url: URL
    var size: Int?
    var sha256: String?
    var scale: LibraryScale
}
