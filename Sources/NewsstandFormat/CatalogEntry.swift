import Foundation

/// One issue in `issues.plist`: the seed's five keys (`Name`, `Title`, `Date`, `Cover`,
/// `Content`) that every reader knows, plus optional keys that old readers ignore.
public struct CatalogEntry: Sendable, Equatable, Codable {
    /// The permanent key.
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
    /// The App Store product identifier, for paid issues.
    public var productID: String?
    /// Size in bytes and SHA-256 (lowercase hex) of the normal bundle.
    public var contentSize: Int?
    public var contentSHA256: String?
    /// Size in bytes and SHA-256 (lowercase hex) of the `@2x` bundle.
    public var retinaContentSize: Int?
    public var retinaContentSHA256: String?
    /// SHA-256 of the normal and `@2x` covers, so a reader knows when to fetch a cover again.
    public var coverSHA256: String?
    public var retinaCoverSHA256: String?

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
        public static let name = "Name"
        public static let title = "Title"
        public static let date = "Date"
        public static let cover = "Cover"
        public static let content = "Content"
        public static let summary = "Summary"
        public static let productID = "ProductID"
        public static let contentSize = "ContentSize"
        public static let contentSHA256 = "ContentSHA256"
        public static let retinaContentSize = "RetinaContentSize"
        public static let retinaContentSHA256 = "RetinaContentSHA256"
        public static let coverSHA256 = "CoverSHA256"
        public static let retinaCoverSHA256 = "RetinaCoverSHA256"
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

    /// The entry as a property-list dictionary (optional keys only when set).
    public var propertyList: [String: Any] {
        var d: [String: Any] = [
            Key.name: name, Key.title: title, Key.date: date, Key.cover: cover, Key.content: content,
        ]
        d[Key.summary] = summary
        d[Key.productID] = productID
        d[Key.contentSize] = contentSize
        d[Key.contentSHA256] = contentSHA256
        d[Key.retinaContentSize] = retinaContentSize
        d[Key.retinaContentSHA256] = retinaContentSHA256
        d[Key.coverSHA256] = coverSHA256
        d[Key.retinaCoverSHA256] = retinaCoverSHA256
        return d
    }

    /// Reads an entry from a catalog dictionary, or says which key is missing or wrong.
    public init(propertyList d: [String: Any]) throws(CatalogError) {
        func required(_ key: String) throws(CatalogError) -> String {
            guard let value = d[key] as? String, !value.isEmpty else {
                throw CatalogError.badEntry(name: d[Key.name] as? String, reason: "\(key) is missing or not a string")
            }
            return value
        }
        let name = try required(Key.name)
        guard let date = d[Key.date] as? Date else {
            throw CatalogError.badEntry(name: name, reason: "Date is missing or not a date")
        }
        self.init(
            name: name, title: try required(Key.title), date: date, cover: try required(Key.cover),
            content: try required(Key.content))
        summary = d[Key.summary] as? String
        productID = d[Key.productID] as? String
        contentSize = d[Key.contentSize] as? Int
        contentSHA256 = d[Key.contentSHA256] as? String
        retinaContentSize = d[Key.retinaContentSize] as? Int
        retinaContentSHA256 = d[Key.retinaContentSHA256] as? String
        coverSHA256 = d[Key.coverSHA256] as? String
        retinaCoverSHA256 = d[Key.retinaCoverSHA256] as? String
    }
}

/// What can be wrong with a catalog.
public enum CatalogError: Error, Sendable, Equatable {
    /// The data is not a property list, or its root is not an array.
    case malformed(reason: String)
    /// One entry lacks a key or has a wrong-typed one.
    case badEntry(name: String?, reason: String)
}
