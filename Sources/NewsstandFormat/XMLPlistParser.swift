import CXML2
import Foundation

/// Turns an XML property list into `PlistNode`s with libxml2, collecting every structural
/// problem (bad element, key without value, bad number or date) rather than stopping at the first.
struct XMLPlistParser {
    let displayPath: String
    private var problems: [Diagnostic] = []

    init(displayPath: String) {
        self.displayPath = displayPath
    }

    private static let options = Int32(
        XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue)

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    func parse(path: String) throws(PlistReadFailure) -> PlistNode {
        try parseDocument { xmlReadFile(path, nil, Self.options) }
    }

    func parse(data: Data) throws(PlistReadFailure) -> PlistNode {
        try parseDocument {
            data.withUnsafeBytes { raw in
                xmlReadMemory(
                    raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), displayPath, nil, Self.options)
            }
        }
    }

    /// Runs libxml2 with a structured error handler installed for this thread only
    /// (libxml2 keeps its error handlers per thread), then walks the tree.
    private func parseDocument(_ read: () -> xmlDocPtr?) throws(PlistReadFailure) -> PlistNode {
        _ = Self.initialized
        let collector = XMLErrorCollector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        xmlSetStructuredErrorFunc(context) { context, error in
            guard let context, let error else { return }
            Unmanaged<XMLErrorCollector>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
        }
        let document = read()
        xmlSetStructuredErrorFunc(nil, nil)
        defer { if let document { xmlFreeDoc(document) } }

        if let first = collector.first {
            throw PlistReadFailure(diagnostics: [
                Diagnostic(
                    .malformedXML, first.message,
                    at: SourceLocation(file: displayPath, line: first.line, column: first.column))
            ])
        }
        guard let document, let root = xmlDocGetRootElement(document) else {
            throw PlistReadFailure(diagnostics: [
                Diagnostic(.malformedXML, "the file is empty or not XML", at: SourceLocation(file: displayPath, line: 1))
            ])
        }
        var parser = self
        return try parser.walkRoot(root)
    }

    private mutating func walkRoot(_ root: xmlNodePtr) throws(PlistReadFailure) -> PlistNode {
        let node: PlistNode?
        if name(of: root) == "plist" {
            let children = elementChildren(of: root)
            if children.count == 1 {
                node = value(of: children[0])
            } else {
                problem(root, "<plist> must contain exactly one value, found \(children.count)")
                node = nil
            }
        } else {
            node = value(of: root)
        }
        if let node, problems.isEmpty { return node }
        throw PlistReadFailure(diagnostics: problems)
    }

    private mutating func value(of element: xmlNodePtr) -> PlistNode? {
        let line = Int(xmlGetLineNo(element))
        switch name(of: element) {
        case "string":
            return PlistNode(.string(text(of: element)), line: line)
        case "integer":
            let t = text(of: element).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let i = Self.integer(t) else { return invalid(element, "'\(t)' is not an integer") }
            return PlistNode(.integer(i), line: line)
        case "real":
            let t = text(of: element).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let r = Double(t) else { return invalid(element, "'\(t)' is not a real number") }
            return PlistNode(.real(r), line: line)
        case "true": return PlistNode(.boolean(true), line: line)
        case "false": return PlistNode(.boolean(false), line: line)
        case "date":
            let t = text(of: element)
            guard let d = PlistDate.parse(t) else {
                return invalid(element, "'\(t)' is not a plist date; expected yyyy-MM-ddTHH:mm:ssZ")
            }
            return PlistNode(.date(d), line: line)
        case "data":
            let t = text(of: element).filter { !$0.isWhitespace }
            guard let d = Data(base64Encoded: t) else { return invalid(element, "<data> is not valid base64") }
            return PlistNode(.data(d), line: line)
        case "array":
            var nodes: [PlistNode] = []
            for child in elementChildren(of: element) {
                if let node = value(of: child) { nodes.append(node) }
            }
            return PlistNode(.array(nodes), line: line)
        case "dict":
            return dictionary(element, line: line)
        case let other:
            return invalid(element, "<\(other)> is not a property-list element")
        }
    }

    private mutating func dictionary(_ element: xmlNodePtr, line: Int) -> PlistNode? {
        var entries: [PlistNode.Entry] = []
        var pendingKey: (String, Int)?
        for child in elementChildren(of: element) {
            if name(of: child) == "key" {
                if let (key, _) = pendingKey { problem(child, "key '\(key)' has no value") }
                pendingKey = (text(of: child), Int(xmlGetLineNo(child)))
            } else if let (key, keyLine) = pendingKey {
                pendingKey = nil
                if let node = value(of: child) {
                    entries.removeAll { $0.key == key }
                    entries.append(PlistNode.Entry(key: key, keyLine: keyLine, node: node))
                }
            } else {
                problem(child, "<\(name(of: child))> in a <dict> has no <key> before it")
            }
        }
        if let (key, keyLine) = pendingKey {
            problems.append(
                Diagnostic(.malformedPlist, "key '\(key)' has no value", at: SourceLocation(file: displayPath, line: keyLine)))
        }
        return PlistNode(.dictionary(entries), line: line)
    }

    private mutating func elementChildren(of element: xmlNodePtr) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = element.pointee.children
        while let node = child {
            if node.pointee.type == XML_ELEMENT_NODE {
                result.append(node)
            } else if node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE {
                let t = text(of: node)
                if !t.allSatisfy(\.isWhitespace) {
                    problem(
                        node,
                        "unexpected text '\(t.trimmingCharacters(in: .whitespacesAndNewlines))' inside <\(name(of: element))>")
                }
            }
            child = node.pointee.next
        }
        return result
    }

    private mutating func invalid(_ element: xmlNodePtr, _ message: String) -> PlistNode? {
        problem(element, message)
        return nil
    }

    private mutating func problem(_ node: xmlNodePtr, _ message: String) {
        problems.append(
            Diagnostic(.malformedPlist, message, at: SourceLocation(file: displayPath, line: Int(xmlGetLineNo(node)))))
    }

    private func name(of node: xmlNodePtr) -> String {
        guard let name = node.pointee.name else { return "" }
        return String(cString: name)
    }

    private func text(of node: xmlNodePtr) -> String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { cxml_free(content) }
        return String(cString: content)
    }

    static func integer(_ text: String) -> Int? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("-0x") { return Int(text.dropFirst(3), radix: 16).map { -$0 } }
        return Int(text)
    }
}

/// Receives libxml2's structured errors during one parse; keeps the first, which is the cause
/// (later ones are usually its consequences).
private final class XMLErrorCollector {
    struct Entry {
        let message: String
        let line: Int
        let column: Int?
    }
    private(set) var first: Entry?

    func record(_ error: xmlError) {
        guard first == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let message = error.message.map { String(cString: $0) } ?? "malformed XML"
        first = Entry(
            message: message.trimmingCharacters(in: .whitespacesAndNewlines),
            line: Int(error.line),
            column: error.int2 > 0 ? Int(error.int2) : nil)
    }
}
