import Foundation

/// A page type an app maps a page class to (the `NSClassFromString` of the original design):
/// it names its class and decodes its properties. Register your own in a `PageRegistry`.
public protocol IssuePage: Sendable {
    /// The `class` value in `pages.plist` this type handles.
    static var className: String { get }
    /// Decodes the page from its properties; throws when a property it needs is missing,
    /// mistyped or names a file the issue lacks.
    init(properties: PageProperties) throws(ContentError)
}

/// A full-screen image; every built-in class builds on it.
public struct SimplePage: IssuePage, Equatable {
    public static let className = "SimplePage"
    /// The page's image for the library's scale.
    public var baseImage: URL

    public init(properties: PageProperties) throws(ContentError) {
        baseImage = try properties.asset("baseImage")
    }
}

/// A base image with a gallery of photos, each opened from its thumbnail.
public struct PhotoPage: IssuePage, Equatable {
    public static let className = "PhotoPage"

    /// One photo of the gallery.
    public struct Photo: Sendable, Equatable {
        /// The full-size photo.
        public var photo: URL
        /// Its thumbnail, for the gallery.
        public var thumbnail: URL
    }

    /// The page's image, for the library's scale.
    public var baseImage: URL
    /// The gallery, in order (at least one).
    public var photos: [Photo]

    public init(properties: PageProperties) throws(ContentError) {
        baseImage = try properties.asset("baseImage")
        var photos: [Photo] = []
        for (index, item) in try properties.dictionaries("photos").enumerated() {
            let photo = try item.asset(named: try item.string("photo"), property: "photos[\(index)].photo")
            let thumbnail = try item.asset(named: try item.string("thumbnail"), property: "photos[\(index)].thumbnail")
            photos.append(Photo(photo: photo, thumbnail: thumbnail))
        }
        self.photos = photos
    }
}

/// A page of a class the app has no type for: kept with its raw properties rather than failing
/// the issue, so an app can show a placeholder or skip it.
public struct GenericPage: Sendable, Equatable {
    /// The `class` value from `pages.plist`.
    public var className: String
    /// The page's properties, as they are.
    public var properties: PageProperties
}
