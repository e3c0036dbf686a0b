import Foundation
import NewsstandCore

/// Writes a `PlistNode` as a plain XML property list: UTF-8, Apple's DOCTYPE, tab-indented,
/// dict entries in their order, nothing but the plist elements and escaped text.
///
/// This is what goes into a bundle, instead of the source file's bytes: libxml2 accepts XML
/// that Foundation's `PropertyListSerialization` (the reader library's parser) or Python's
/// plistlib refuses or reads differently (a comment inside a string, spaces around an
/// integer, a UTF-16 file, a date with a time-zone offset), and readers must see exactly the
/// values the validator checked. The same node always gives the same bytes.
///
/// It is total: whatever it writes, our reader, Foundation and Python's plistlib read back as
/// the same value (dates to the whole second, as Apple's writer has them), and what it cannot
/// write so it refuses (a character outside XML 1.0, a date outside the years 0001 to 9999).
public enum PlistWriter {
    /// Why a node cannot be written.
    public struct Failure: Error, Equatable, Sendable {
        /// What cannot be written.
        public var reason: String
    }

    /// The seconds since 1970 of the dates a plist date can name: `0001-01-01T00:00:00Z` to
    /// `9999-12-31T23:59:59Z` (four digits of year).
    public static let writableSeconds: ClosedRange<Double> = -62_135_596_800...253_402_300_799

    /// The XML property list for `root`.
    public static func xml(_ root: PlistNode) throws(Failure) -> Data {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        try write(root, indent: 0, into: &out)
        out += "</plist>\n"
        return Data(out.utf8)
    }

    private static func write(_ node: PlistNode, indent: Int, into out: inout String) throws(Failure) {
        switch node.value {
        case .scalar(let value):
            try write(value, indent: indent, into: &out)
        case .array(let items):
            try container("array", items, indent: indent, into: &out) { item, out throws(Failure) in
                try write(item, indent: indent + 1, into: &out)
            }
        case .dictionary(let entries):
            try container("dict", entries, indent: indent, into: &out) { entry, out throws(Failure) in
                out += "\(String(repeating: "\t", count: indent + 1))<key>\(try escape(entry.key))</key>\n"
                try write(entry.node, indent: indent + 1, into: &out)
            }
        }
    }

    /// A plain value; a dictionary's keys in sorted order (it has no file order to keep).
    private static func write(_ value: PlistValue, indent: Int, into out: inout String) throws(Failure) {
        let tabs = String(repeating: "\t", count: indent)
        switch value {
        case .string(let s): out += "\(tabs)<string>\(try escape(s))</string>\n"
        case .integer(let i): out += "\(tabs)<integer>\(i)</integer>\n"
        case .real(let r): out += "\(tabs)<real>\(text(of: r))</real>\n"
        case .boolean(let b): out += "\(tabs)<\(b ? "true" : "false")/>\n"
        case .date(let d): out += "\(tabs)<date>\(try text(of: d))</date>\n"
        case .data(let d): out += "\(tabs)<data>\(d.base64EncodedString())</data>\n"
        case .array(let items):
            try container("array", items, indent: indent, into: &out) { item, out throws(Failure) in
                try write(item, indent: indent + 1, into: &out)
            }
        case .dictionary(let entries):
            try container("dict", entries.sorted { $0.key < $1.key }, indent: indent, into: &out) { entry, out throws(Failure) in
                out += "\(String(repeating: "\t", count: indent + 1))<key>\(try escape(entry.key))</key>\n"
                try write(entry.value, indent: indent + 1, into: &out)
            }
        }
    }

    /// A real as Apple's writer spells it: `nan` for every NaN (quiet or signalling, any sign or
    /// payload: Swift's `snan(0x1)` and `-nan` are read by no plist reader), `+infinity`,
    /// `-infinity`; a finite one in Swift's shortest form that reads back exactly (1.5, 1e-05),
    /// which Foundation's `strtod` and plistlib's `float` both read.
    static func text(of real: Double) -> String {
        if real.isNaN { return "nan" }
        if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
        return "\(real)"
    }

    /// A date in whole seconds, UTC; one outside `writableSeconds` (or not a number) is refused:
    /// its year would not have four digits and no reader would parse it.
    static func text(of date: Date) throws(Failure) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard writableSeconds.contains(seconds) else {
            throw Failure(
                reason:
                    "the date \(date.timeIntervalSince1970) s after 1970 is outside the years 0001 to 9999 and cannot be written in an XML property list"
            )
        }
        return PlistDate.format(date)
    }

    /// `<name>` … `</name>` around the children, or `<name/>` when there are none.
    private static func container<Child>(
        _ name: String, _ children: [Child], indent: Int, into out: inout String,
        _ child: (Child, inout String) throws(Failure) -> Void
    ) throws(Failure) {
        let tabs = String(repeating: "\t", count: indent)
        guard !children.isEmpty else {
            out += "\(tabs)<\(name)/>\n"
            return
        }
        out += "\(tabs)<\(name)>\n"
        for item in children { try child(item, &out) }
        out += "\(tabs)</\(name)>\n"
    }

    /// The text escaped by the one markup rule (`Markup.escape`), once every character is one
    /// XML can carry.
    private static func escape(_ text: String) throws(Failure) -> String {
        if let bad = text.unicodeScalars.first(where: { !Markup.isXMLCharacter($0) }) {
            throw Failure(reason: "U+\(String(format: "%04X", bad.value)) cannot be written in an XML property list")
        }
        return Markup.escape(text)
    }
}
