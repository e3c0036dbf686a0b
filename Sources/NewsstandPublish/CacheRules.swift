import Foundation
import NewsstandCore

/// The one table of what every published file is served with: its `Cache-Control` by kind
/// (`PublishedKind`) and its `Content-Type` by name. Publish stores both with each object on
/// remotes that keep metadata (S3 and compatibles, GCS, Azure: `RcloneDestination`), sends the
/// type with each WebDAV `PUT`, and `publish --verify` checks what is served; the nginx
/// example in the reference (`nginxLocations`) is written from the same table.
public struct CacheRules: Sendable, Equatable {
    /// How long a shared cache (a CDN) and a reader may keep a catalog without asking again;
    /// 0 makes it `no-cache` (every request revalidated at the origin).
    public var catalogMaxAge: Int

    /// The default catalog lifetime: one revalidation a minute at most per CDN node, and a
    /// reader sees a new issue within a minute.
    public static let defaultCatalogMaxAge = 60
    /// The rules with catalogs kept `catalogMaxAge` seconds.
    public init(catalogMaxAge: Int = CacheRules.defaultCatalogMaxAge) {
        self.catalogMaxAge = catalogMaxAge
    }

    /// What a file is, for its caching: decided by its path alone, as a CDN's or a server's
    /// path rules would.
    public enum PublishedKind: String, Sendable, CaseIterable {
        /// `issues.plist`, `shelf.json`, `atom.xml`, `opds.json`, a web edition's `index.html`.
        case catalog
        /// A name with a content hash (`a-1.3fa9c1e2.zip`, `cover.28580f68@2x.png`): its URL
        /// never gets other bytes.
        case contentNamed
        /// Any other public file (`--fixed-names` bundles and covers, a web edition's pages):
        /// the same URL may get new bytes.
        case fixedName
        /// A paid issue's content with a content hash (`paid/a-3/a-3.3fa9c1e2.zip`).
        case paidContentNamed
        /// A paid issue's content with a fixed name (`paid/a-3/a-3.zip`).
        case paidFixedName
    }

    /// The catalog files, by their path at the destination's root.
    public static let catalogPaths: Set<String> = ["issues.plist", "shelf.json", "atom.xml", "opds.json", "index.html"]

    /// The kind of the file published at `path` (relative to the destination's root).
    public static func kind(of path: String) -> PublishedKind {
        if catalogPaths.contains(path) { return .catalog }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let paid = path.hasPrefix(IssueAccess.paidFolder + "/")
        switch (paid, isContentNamed(name)) {
        case (true, true): return .paidContentNamed
        case (true, false): return .paidFixedName
        case (false, true): return .contentNamed
        case (false, false): return .fixedName
        }
    }

    /// Whether `name` carries a content hash as `build` writes one: eight lowercase hex
    /// digits before the extension, an index's `.index` and the `@2x` suffix
    /// (`nameRegularExpression`).
    static func isContentNamed(_ name: String) -> Bool {
        name.range(of: contentNamePattern, options: .regularExpression) != nil
    }

    /// The content-hashed names, as the reference shows them.
    public static var contentNamePatternForDocs: String { contentNamePattern }

    /// The content-hashed names, as a regular expression both Foundation and nginx (PCRE) read.
    static let contentNamePattern = #"\.[0-9a-f]{8}(\.index)?(@2x)?\.(zip|hpub|epub|png|jpe?g|webp|json)$"#

    /// The `Cache-Control` a file of `kind` is served with.
    public func cacheControl(for kind: PublishedKind) -> String {
        switch kind {
        case .catalog: catalogMaxAge == 0 ? "no-cache" : "public, max-age=\(catalogMaxAge)"
        case .contentNamed: "public, max-age=31536000, immutable"
        case .fixedName: "no-cache"
        // `private`: no shared cache may keep what is served only signed.
        case .paidContentNamed: "private, max-age=31536000, immutable"
        case .paidFixedName: "private, no-cache"
        }
    }

    /// The `Content-Type` of a file named `path`, by its name.
    public static func contentType(of path: String) -> String {
        let name = (path.split(separator: "/").last.map(String.init) ?? path).lowercased()
        if name == "opds.json" { return "application/opds+json" }
        if name == "atom.xml" { return "application/atom+xml" }
        let suffix = name.split(separator: ".").last.map(String.init) ?? ""
        return contentTypes[suffix] ?? "application/octet-stream"
    }

    /// Content types by file extension: every kind of file build and preview write.
    public static let contentTypes: [String: String] = [
        "zip": "application/zip", "hpub": "application/zip", "epub": "application/epub+zip",
        "plist": "application/x-plist", "json": "application/json", "xml": "application/xml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "webp": "image/webp", "gif": "image/gif",
        "heic": "image/heic", "svg": "image/svg+xml", "html": "text/html; charset=utf-8", "css": "text/css",
        "js": "text/javascript", "txt": "text/plain; charset=utf-8",
    ]

    /// Both headers for the file published at `path`.
    public func headers(for path: String) -> ObjectHeaders {
        ObjectHeaders(cacheControl: cacheControl(for: Self.kind(of: path)), contentType: Self.contentType(of: path))
    }
}

/// What an object is stored and served with.
public struct ObjectHeaders: Sendable, Equatable {
    /// `Cache-Control`.
    public var cacheControl: String
    /// `Content-Type`.
    public var contentType: String

    /// Headers with these values.
    public init(cacheControl: String, contentType: String) {
        self.cacheControl = cacheControl
        self.contentType = contentType
    }
}
