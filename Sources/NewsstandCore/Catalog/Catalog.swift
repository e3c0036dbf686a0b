import Foundation

/// `issues.plist`: an array of `CatalogEntry`, newest first.
public enum Catalog {
    /// Orders entries as the catalog lists them: newest first, then by name (`IssueOrder`).
    public static func sorted(_ entries: [CatalogEntry]) -> [CatalogEntry] {
        IssueOrder.sorted(entries) { ($0.date, $0.name) }
    }

    /// Encodes entries as an XML property list, newest first. The output is byte-identical
    /// for the same entries (keys are sorted by the serializer): `CatalogXML` writes what
    /// `PropertyListSerialization` would, and leaves to it what it does not vouch for.
    public static func encode(_ entries: [CatalogEntry]) -> Data {
        let ordered = sorted(entries)
        if let data = CatalogXML.encode(ordered.map(\.plist)) { return data }
        // The serializer fails only on objects a plist cannot hold; an entry holds strings,
        // dates and integers.
        return (try? PropertyListSerialization.data(fromPropertyList: ordered.map(\.propertyList), format: .xml, options: 0))
            ?? Data()
    }

    /// Decodes a whole catalog by the rules the reader applies as a catalog arrives
    /// (`CatalogStreamParser`): one set of rules wherever a catalog is read. Entries that are
    /// not dictionaries or lack a required key are returned as problems; the rest are used.
    public static func decode(_ data: Data) throws(CatalogError) -> (entries: [CatalogEntry], problems: [CatalogError]) {
        var parser = CatalogStreamParser()
        let failure: CatalogError? = data.withUnsafeBytes { bytes in
            do throws(CatalogError) {
                try parser.consume(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
        return try parser.finish()
    }
}
