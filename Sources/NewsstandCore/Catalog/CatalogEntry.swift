import Foundation

/// One issue in `issues.plist`: the seed's five keys (`Name`, `Title`, `Date`, `Cover`,
/// `Content`) that every reader knows, plus optional keys that old readers ignore.
public struct CatalogEntry: Sendable, Equatable, Codable {
    /// The issue's permanent key.
    public var name: String
    /// The title shown on the shelf.
    public var title: String
    /// The publication date; orders the shelf.
    public var date: Date
    /// The normal-size cover image URL; the retina URL follows by the `@2x` rule.
    public var cover: String
    /// The normal-size bundle URL; the retina URL follows by the `@2x` rule.
    public var content: String
    /// A short description of the issue.
    public var summary: String?
    /// The store product identifier (an In-App Purchase) the app's purchase sheet sells the
    /// issue as; given for paid issues, and by other tools for any issue.
    public var productID: String?
    /// Whether anyone may download the issue (`free`, the default: absent from the catalog) or
    /// only readers the publisher vouches for (`paid`: written as `Access` = `paid`).
    public var access: IssueAccess = .free
    /// Size in bytes of the normal bundle.
    public var contentSize: Int?
    /// SHA-256 of the normal bundle, lowercase hex.
    public var contentSHA256: String?
    /// Size in bytes of the `@2x` bundle.
    public var retinaContentSize: Int?
    /// SHA-256 of the `@2x` bundle, lowercase hex.
    public var retinaContentSHA256: String?
    /// SHA-256 of the normal cover, lowercase hex, so a reader knows when to fetch it again.
    public var coverSHA256: String?
    /// SHA-256 of the `@2x` cover, lowercase hex.
    public var retinaCoverSHA256: String?
    /// The URL of the normal bundle's index (`BundleIndex`), for updates by ranges; the `@2x`
    /// bundle's index URL follows by the `@2x` rule.
    public var contentIndex: String?
    /// Size in bytes of the normal bundle's index.
    public var contentIndexSize: Int?
    /// SHA-256 of the normal bundle's index, lowercase hex.
    public var contentIndexSHA256: String?
    /// Size in bytes of the `@2x` bundle's index.
    public var retinaContentIndexSize: Int?
    /// SHA-256 of the `@2x` bundle's index, lowercase hex.
    public var retinaContentIndexSHA256: String?

    /// Creates an entry with the five required keys; the optional ones can be set afterwards.
    public init(name: String, title: String, date: Date, cover: String, content: String) {
        self.name = name
        self.title = title
        self.date = date
        self.cover = cover
        self.content = content
    }

    /// The catalog keys, in the spelling `issues.plist` uses.
    public enum Key {
        /// `Name`: the issue's permanent key.
        public static let name = "Name"
        /// `Title`.
        public static let title = "Title"
        /// `Date`: orders the shelf.
        public static let date = "Date"
        /// `Cover`: the normal cover's URL.
        public static let cover = "Cover"
        /// `Content`: the normal bundle's URL.
        public static let content = "Content"
        /// `Summary`.
        public static let summary = "Summary"
        /// `ProductID`: the store product that sells the issue.
        public static let productID = "ProductID"
        /// `Access`: `paid`, or absent for a free issue.
        public static let access = "Access"
        /// `ContentSize`: the normal bundle's size in bytes.
        public static let contentSize = "ContentSize"
        /// `ContentSHA256`: the normal bundle's SHA-256.
        public static let contentSHA256 = "ContentSHA256"
        /// `RetinaContentSize`: the `@2x` bundle's size in bytes.
        public static let retinaContentSize = "RetinaContentSize"
        /// `RetinaContentSHA256`: the `@2x` bundle's SHA-256.
        public static let retinaContentSHA256 = "RetinaContentSHA256"
        /// `CoverSHA256`: the normal cover's SHA-256.
        public static let coverSHA256 = "CoverSHA256"
        /// `RetinaCoverSHA256`: the `@2x` cover's SHA-256.
        public static let retinaCoverSHA256 = "RetinaCoverSHA256"
        /// `ContentIndex`: the normal bundle's index URL.
        public static let contentIndex = "ContentIndex"
        /// `ContentIndexSize`: the normal bundle's index size in bytes.
        public static let contentIndexSize = "ContentIndexSize"
        /// `ContentIndexSHA256`: the normal bundle's index SHA-256.
        public static let contentIndexSHA256 = "ContentIndexSHA256"
        /// `RetinaContentIndexSize`: the `@2x` bundle's index size in bytes.
        public static let retinaContentIndexSize = "RetinaContentIndexSize"
        /// `RetinaContentIndexSHA256`: the `@2x` bundle's index SHA-256.
        public static let retinaContentIndexSHA256 = "RetinaContentIndexSHA256"
    }

    /// The URL of the cover for a scale (`@2x` rule for retina).
    public func coverURL(retina: Bool) -> String { retina ? RetinaName.of(cover) : cover }
    /// The URL of the bundle for a scale (`@2x` rule for retina).
    public func contentURL(retina: Bool) -> String { retina ? RetinaName.of(content) : content }
    /// The bundle's size for a scale, when the catalog gives it.
    public func contentSize(retina: Bool) -> Int? { retina ? retinaContentSize : contentSize }
    /// The bundle's SHA-256 for a scale, when the catalog gives it.
    public func contentSHA256(retina: Bool) -> String? { retina ? retinaContentSHA256 : contentSHA256 }
    /// The cover's SHA-256 for a scale, when the catalog gives it.
    public func coverSHA256(retina: Bool) -> String? { retina ? retinaCoverSHA256 : coverSHA256 }
    /// The URL of the bundle's index for a scale (`@2x` rule for retina), when the catalog
    /// gives one.
    public func contentIndexURL(retina: Bool) -> String? { contentIndex.map { retina ? RetinaName.of($0) : $0 } }
    /// The index's size for a scale, when the catalog gives it.
    public func contentIndexSize(retina: Bool) -> Int? { retina ? retinaContentIndexSize : contentIndexSize }
    /// The index's SHA-256 for a scale, when the catalog gives it.
    public func contentIndexSHA256(retina: Bool) -> String? { retina ? retinaContentIndexSHA256 : contentIndexSHA256 }

    /// Whether the entry says it has `@2x` files: any of `RetinaContentSize`,
    /// `RetinaContentSHA256` or `RetinaCoverSHA256`. A catalog in the seed's minimal form (or
    /// from a tool that makes one scale only) has none; a retina reader then tries the `@2x`
    /// files and falls back to the normal ones.
    public var hasRetinaKeys: Bool {
        retinaContentSize != nil || retinaContentSHA256 != nil || retinaCoverSHA256 != nil
    }

    /// The entry as property-list values (optional keys only when set).
    public var plist: [String: PlistValue] {
        var d: [String: PlistValue] = [
            Key.name: .string(name), Key.title: .string(title), Key.date: .date(date), Key.cover: .string(cover),
            Key.content: .string(content),
        ]
        d[Key.summary] = summary.map(PlistValue.string)
        d[Key.productID] = productID.map(PlistValue.string)
        // Free is the default: a free issue's entry stays the five keys and the sizes it had.
        d[Key.access] = access == .paid ? .string(IssueAccess.paid.rawValue) : nil
        d[Key.contentSize] = contentSize.map(PlistValue.integer)
        d[Key.contentSHA256] = contentSHA256.map(PlistValue.string)
        d[Key.retinaContentSize] = retinaContentSize.map(PlistValue.integer)
        d[Key.retinaContentSHA256] = retinaContentSHA256.map(PlistValue.string)
        d[Key.coverSHA256] = coverSHA256.map(PlistValue.string)
        d[Key.retinaCoverSHA256] = retinaCoverSHA256.map(PlistValue.string)
        d[Key.contentIndex] = contentIndex.map(PlistValue.string)
        d[Key.contentIndexSize] = contentIndexSize.map(PlistValue.integer)
        d[Key.contentIndexSHA256] = contentIndexSHA256.map(PlistValue.string)
        d[Key.retinaContentIndexSize] = retinaContentIndexSize.map(PlistValue.integer)
        d[Key.retinaContentIndexSHA256] = retinaContentIndexSHA256.map(PlistValue.string)
        return d
    }

    /// The entry as a Foundation property-list dictionary (for `PropertyListSerialization`).
    public var propertyList: [String: Any] { plist.mapValues(\.foundationObject) }

    /// Reads an entry from a catalog dictionary, or says which key is missing or wrong. An
    /// optional key of the wrong type is treated as absent, as readers that know only the
    /// five original keys would.
    public init(plist d: [String: PlistValue]) throws(CatalogError) {
        func required(_ key: String) throws(CatalogError) -> String {
            guard let value = d[key]?.string, !value.isEmpty else {
                throw CatalogError.badEntry(name: d[Key.name]?.string, reason: "\(key) is missing or not a string")
            }
            return value
        }
        let name = try required(Key.name)
        guard let date = d[Key.date]?.date else {
            throw CatalogError.badEntry(name: name, reason: "Date is missing or not a date")
        }
        self.init(
            name: name, title: try required(Key.title), date: date, cover: try required(Key.cover),
            content: try required(Key.content))
        summary = d[Key.summary]?.string
        productID = d[Key.productID]?.string
        access = IssueAccess(catalogValue: d[Key.access])
        contentSize = d[Key.contentSize]?.integer
        contentSHA256 = d[Key.contentSHA256]?.string
        retinaContentSize = d[Key.retinaContentSize]?.integer
        retinaContentSHA256 = d[Key.retinaContentSHA256]?.string
        coverSHA256 = d[Key.coverSHA256]?.string
        retinaCoverSHA256 = d[Key.retinaCoverSHA256]?.string
        contentIndex = d[Key.contentIndex]?.string
        contentIndexSize = d[Key.contentIndexSize]?.integer
        contentIndexSHA256 = d[Key.contentIndexSHA256]?.string
        retinaContentIndexSize = d[Key.retinaContentIndexSize]?.integer
        retinaContentIndexSHA256 = d[Key.retinaContentIndexSHA256]?.string
    }
}

/// What can be wrong with a catalog.
public enum CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The data is not a property list, or its root is not an array.
    case malformed(reason: String)
    /// One entry lacks a key or has a wrong-typed one.
    case badEntry(name: String?, reason: String)

    /// What is wrong, for messages: "entry 'a-1': Date is missing or not a date".
    public var description: String {
        switch self {
        case .malformed(let reason): reason
        case .badEntry(let name, let reason): name.map { "entry '\($0)': \(reason)" } ?? reason
        }
    }
}
