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
public enum PlistWriter {
    /// Why a node cannot be written.
    public struct Failure: Error, Equatable, Sendable {
        /// What cannot be written.
        public var reason: String
    }

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
        case .real(let r):
            // Swift's shortest round-trip form: 1.5, 1e-05, inf, nan; Foundation and plistlib read each back exactly.
            out += "\(tabs)<real>\(r)</real>\n"
        case .boolean(let b): out += "\(tabs)<\(b ? "true" : "false")/>\n"
        case .date(let d): out += "\(tabs)<date>\(PlistDate.format(d))</date>\n"
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

    /// `<name>` … `</name>` around the children, or `<name/>` when there are none.
    private static func container<Child>(
        _ name: String, _ children: [Child], indent: Int, into out: inout String,
        _ child: (Child, inout String) throws(Failure) -> Void
    ) throws(Failure) {
        let tabs = String(repeating: "\t", count: indent)
        guard !children.isEmpty else { return out += "\(tabs)<\(name)/>\n" }
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
