import Foundation
import NewsstandCore

/// A value of a page's `properties`: a property-list value (`PlistValue`, shared with the build).
public typealias PropertyValue = PlistValue

/// A page's properties with typed accessors that resolve asset names to file URLs for the
/// library's scale: on retina screens the `@2x` file when the issue has it, else the normal one.
public struct PageProperties: Sendable, Equatable {
    /// The raw values.
    public var values: [String: PropertyValue]
    /// The content folder.
    public var folder: URL
    /// Whether `@2x` files are preferred.
    public var isRetina: Bool

    /// Properties with their values, resolved against `folder`.
    public init(values: [String: PropertyValue], folder: URL, isRetina: Bool) {
        self.values = values
        self.folder = folder
        self.isRetina = isRetina
    }

    /// The string property `key`.
    public func string(_ key: String) throws(ContentError) -> String {
        guard let value = values[key] else { throw .badProperty(name: key, reason: "missing") }
        guard let string = value.string else { throw .badProperty(name: key, reason: "not a string") }
        return string
    }

    /// The file URL of the asset named by property `key`.
    public func asset(_ key: String) throws(ContentError) -> URL {
        try asset(named: try string(key), property: key)
    }

    /// The file URL of an asset name (the `@2x` file on retina screens when present).
    public func asset(named name: String, property: String) throws(ContentError) -> URL {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix(".") else {
            throw .badProperty(name: property, reason: "'\(name)' is not a plain file name")
        }
        if isRetina {
            let retina = folder.appendingPathComponent(RetinaName.of(name))
            if FileStatus.kind(of: retina) != nil { return retina }
        }
        let normal = folder.appendingPathComponent(name)
        guard FileStatus.kind(of: normal) != nil else { throw .assetMissing(name: name, property: property) }
        return normal
    }

    /// The array property `key` as nested properties (for arrays of dicts such as `photos`).
    public func dictionaries(_ key: String) throws(ContentError) -> [PageProperties] {
        guard let value = values[key] else { throw .badProperty(name: key, reason: "missing") }
        guard let array = value.array else { throw .badProperty(name: key, reason: "not an array") }
        var result: [PageProperties] = []
        for (index, element) in array.enumerated() {
            guard let dictionary = element.dictionary else { throw .badProperty(name: "\(key)[\(index)]", reason: "not a dict") }
            result.append(PageProperties(values: dictionary, folder: folder, isRetina: isRetina))
        }
        return result
    }
}
