import Foundation

/// `issues.plist`: an array of `CatalogEntry`, newest first.
public enum Catalog {
    /// Orders entries as the catalog lists them: newest first, then by name.
    public static func sorted(_ entries: [CatalogEntry]) -> [CatalogEntry] {
        entries.sorted { a, b in a.date != b.date ? a.date > b.date : a.name < b.name }
    }

    /// Encodes entries as an XML property list, newest first. The output is byte-identical
    /// for the same entries (keys are sorted by the serializer).
    public static func encode(_ entries: [CatalogEntry]) throws -> Data {
        try PropertyListSerialization.data(
            fromPropertyList: sorted(entries).map(\.propertyList), format: .xml, options: 0)
    }

    /// Decodes a catalog. Entries that are not dictionaries or lack a required key are
    /// returned as problems; the rest are used.
    public static func decode(_ data: Data) throws(CatalogError) -> (entries: [CatalogEntry], problems: [CatalogError]) {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, format: nil)
        } catch {
            throw .malformed(reason: "not a property list")
        }
        guard let array = object as? [Any] else { throw .malformed(reason: "the root is not an array") }
        var entries: [CatalogEntry] = []
        var problems: [CatalogError] = []
        for item in array {
            guard let dictionary = item as? [String: Any] else {
                problems.append(.badEntry(name: nil, reason: "an entry is not a dictionary"))
                continue
            }
            do {
                entries.append(try CatalogEntry(propertyList: dictionary))
            } catch {
                problems.append(error)
            }
        }
        return (entries, problems)
    }
}
