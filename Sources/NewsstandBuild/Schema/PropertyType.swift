/// The type of a page property in a page-class schema.
public indirect enum PropertyType: Sendable, Equatable {
    /// An image file in `assets/`, shipped as the normal file in the normal bundle and as its
    /// `@2x` file in the retina bundle.
    case image
    /// A movie file in `assets/`, shipped unchanged in both bundles.
    case movie
    /// Any other file in `assets/` (HTML, PDF, …), shipped unchanged in both bundles.
    case file
    case string
    /// An integer or real.
    case number
    case boolean
    /// An absolute URL with a scheme, as a string.
    case url
    case date
    /// An array whose items all have one type, with optional bounds on its count.
    case array(of: PropertyType, minCount: Int?, maxCount: Int?)
    /// A dictionary with named properties of its own.
    case dictionary([PropertySpec])

    /// The asset kind when values of this type are files in `assets/`.
    public var assetKind: AssetKind? {
        switch self {
        case .image: return .image
        case .movie: return .movie
        case .file: return .file
        default: return nil
        }
    }

    /// How the type reads in a message (`array of image`).
    public var description: String {
        switch self {
        case .image: return "image"
        case .movie: return "movie"
        case .file: return "file"
        case .string: return "string"
        case .number: return "number"
        case .boolean: return "boolean"
        case .url: return "URL"
        case .date: return "date"
        case .array(let item, _, _): return "array of \(item.description)"
        case .dictionary: return "dict"
        }
    }
}

/// A file kind that the validator checks against `assets/` and the bundle builder packs.
public enum AssetKind: String, Sendable, Codable, Comparable {
    case image, movie, file

    public static func < (lhs: AssetKind, rhs: AssetKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A named property of a page class (or of a dictionary property).
public struct PropertySpec: Sendable, Equatable {
    public var name: String
    public var type: PropertyType
    public var isRequired: Bool

    public init(name: String, type: PropertyType, isRequired: Bool) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
    }
}
