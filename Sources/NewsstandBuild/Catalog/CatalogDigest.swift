import Foundation
import NewsstandCore

/// The digest of what a catalog file is written from (every entry's keys and values, and the
/// Baker books' URLs for `shelf.json`), with the tool's version: equal digests mean the same
/// bytes would be written again, so a build with no changed entry need not encode the catalog
/// (`PropertyListSerialization` was a sixth of a no-change build).
enum CatalogDigest {
    static func of(_ file: String, entries: [CatalogEntry], books: [String: String] = [:]) -> String {
        let hasher = XXH3()
        hasher.update("catalog \(file) newsstand \(ToolVersion.current) \(entries.count)\n")
        for entry in entries {
            add(.dictionary(entry.plist), to: hasher)
            if let book = books[entry.name] {
                hasher.update("b")
                add(.string(book), to: hasher)
            }
            hasher.update("\n")
        }
        return hasher.finalizeHex()
    }

    /// Each value with its kind and, for text and data, its length first: no two different
    /// values give the same bytes.
    private static func add(_ value: PlistValue, to hasher: XXH3) {
        switch value {
        case .string(let text):
            hasher.update("s\(text.utf8.count):")
            hasher.update(text)
        case .integer(let number): hasher.update("i\(number);")
        case .real(let number): hasher.update("r\(number.bitPattern);")
        case .boolean(let flag): hasher.update(flag ? "T" : "F")
        case .date(let date): hasher.update("d\(date.timeIntervalSinceReferenceDate.bitPattern);")
        case .data(let data):
            hasher.update("x\(data.count):")
            hasher.update(data)
        case .array(let items):
            hasher.update("a\(items.count)[")
            for item in items { add(item, to: hasher) }
        case .dictionary(let items):
            hasher.update("D\(items.count){")
            for (key, item) in items.sorted(by: { $0.key < $1.key }) {
                add(.string(key), to: hasher)
                add(item, to: hasher)
            }
        }
    }
}
