import Foundation

/// The catalog as an XML property list, written directly: the bytes
/// `PropertyListSerialization` writes for the same entries (its XML form, as swift-corelibs-foundation writes it: keys
/// in code-unit order, one tab per level, `&`, `<` and `>` escaped and nothing else, integers
/// in decimal, dates in whole seconds of UTC), at a small part of its cost (encoding a
/// 500-issue catalog was half of a build that changed one issue).
///
/// Only what a catalog entry holds is written (strings, integers, dates), and only what the
/// serializer was seen to write the same way: an entry with another kind of value, a string
/// with a control character other than tab, line feed and carriage return, or a date with a
/// fraction of a second or outside the years 1900 to 9999 gives nil, and `Catalog.encode` asks
/// the serializer. `CatalogXMLTests` compares the two.
enum CatalogXML {
    private static let head = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)

    /// The property list of `entries` (dictionaries, in the order given), or nil when one holds
    /// what this writer does not vouch for.
    static func encode(_ entries: [[String: PlistValue]]) -> Data? {
        var out = head
        guard !entries.isEmpty else {
            out.append(contentsOf: "<array/>\n</plist>\n".utf8)
            return Data(out)
        }
        out.reserveCapacity(head.count + entries.count * 1600)
        out.append(contentsOf: "<array>\n".utf8)
        for entry in entries {
            guard !entry.isEmpty else {
                out.append(contentsOf: "\t<dict/>\n".utf8)
                continue
            }
            out.append(contentsOf: "\t<dict>\n".utf8)
            for key in entry.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                guard let value = entry[key], appendText(key, tag: "key", to: &out), append(value, to: &out) else {
                    return nil
                }
            }
            out.append(contentsOf: "\t</dict>\n".utf8)
        }
        out.append(contentsOf: "</array>\n</plist>\n".utf8)
        return Data(out)
    }

    private static func append(_ value: PlistValue, to out: inout [UInt8]) -> Bool {
        switch value {
        case .string(let text): return appendText(text, tag: "string", to: &out)
        case .integer(let number):
            out.append(contentsOf: "\t\t<integer>".utf8)
            out.append(contentsOf: String(number).utf8)
            out.append(contentsOf: "</integer>\n".utf8)
            return true
        case .date(let date):
            guard let text = dateText(date) else { return false }
            out.append(contentsOf: "\t\t<date>".utf8)
            out.append(contentsOf: text.utf8)
            out.append(contentsOf: "</date>\n".utf8)
            return true
        case .real, .boolean, .data, .array, .dictionary: return false
        }
    }

    /// `<tag>text</tag>` at the dictionary's level, escaped; false for a character the
    /// serializer was not seen to write as is.
    private static func appendText(_ text: String, tag: StaticString, to out: inout [UInt8]) -> Bool {
        out.append(contentsOf: "\t\t<".utf8)
        out.append(contentsOf: UnsafeBufferPointer(start: tag.utf8Start, count: tag.utf8CodeUnitCount))
        out.append(UInt8(ascii: ">"))
        // Most text needs no escape: copied whole.
        if text.utf8.allSatisfy(isPlain) {
            out.append(contentsOf: text.utf8)
        } else {
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "&"): out.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): out.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: ">"): out.append(contentsOf: "&gt;".utf8)
                case 0x09, 0x0A, 0x0D: out.append(byte)
                case 0..<0x20, 0x7F: return false
                default: out.append(byte)
                }
            }
        }
        out.append(contentsOf: "</".utf8)
        out.append(contentsOf: UnsafeBufferPointer(start: tag.utf8Start, count: tag.utf8CodeUnitCount))
        out.append(contentsOf: ">\n".utf8)
        return true
    }

    /// A byte written as it is, in every case.
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: "&") && byte != UInt8(ascii: "<") && byte != UInt8(ascii: ">")
    }

    /// `yyyy-MM-ddTHH:mm:ssZ` in UTC, for a whole second between the years 1900 and 9999.
    private static func dateText(_ date: Date) -> String? {
        let seconds = date.timeIntervalSince1970
        guard seconds.rounded(.down) == seconds, seconds > -2_208_988_800, seconds < 253_402_300_800 else { return nil }
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return nil }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = Int(parts.tm_year) + 1900
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        let day = "\(yearText)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
        return day + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
