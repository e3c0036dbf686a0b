import CXML2
import Foundation
import NewsstandCore

/// Turns an XML property list into `PlistNode`s with libxml2's streaming reader, collecting
/// every structural problem (bad element, key without value, bad number or date) rather than
/// stopping at the first.
///
/// Streaming, not a document tree: libxml2's tree costs about 30 times the file's size in
/// memory (an 8 MB file of `<true/>` took 520 MB), the reader only what it is looking at, so
/// memory is the values kept, which `PlistLimits` caps. The limits are checked as elements
/// arrive, so a file over them stops there.
///
/// A DOCTYPE that declares anything (an internal subset: entities, elements) is refused before
/// any content is read: Foundation and plistlib reject such files, and entities are how XML
/// grows a small file into a huge one.
struct XMLPlistParser {
    let displayPath: String
    let limits: PlistLimits

    private static let options = Int32(
        XML_PARSE_BIG_LINES.rawValue | XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue)

    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    func parse(data: Data) throws(PlistReadFailure) -> PlistNode {
        _ = Self.initialized
        let outcome: Result<PlistNode, PlistReadFailure> = data.withUnsafeBytes { raw in
            guard
                let reader = xmlReaderForMemory(
                    raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), displayPath, nil, Self.options)
            else {
                return .failure(PlistReadFailure(diagnostics: [Self.emptyDocument(displayPath)]))
            }
            var walk = Walk(displayPath: displayPath, limits: limits, source: raw)
            defer {
                // Asking the reader for its document makes it keep the document: free it after the reader.
                let document = xmlTextReaderCurrentDoc(reader)
                xmlFreeTextReader(reader)
                if let document { xmlFreeDoc(document) }
            }
            do throws(PlistReadFailure) {
                return .success(try walk.run(reader))
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    static func emptyDocument(_ displayPath: String) -> Diagnostic {
        Diagnostic(.malformedXML, "the file is empty or not XML", at: SourceLocation(file: displayPath, line: 1))
    }

    static func integer(_ text: String) -> Int? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("-0x") { return Int(text.dropFirst(3), radix: 16).map { -$0 } }
        return Int(text)
    }
}

/// One pass of the reader over a document, building nodes from a stack of open elements.
private struct Walk {
    let displayPath: String
    let limits: PlistLimits
    let source: UnsafeRawBufferPointer

    private var stack: [Frame] = []
    /// Structural problems, at most `DiagnosticList.standardLimit` listed (a file of 250,000
    /// unknown elements has as many problems).
    private var problems: DiagnosticList
    private var values = 0
    private var root: PlistNode?
    private var checkedDoctype = false

    init(displayPath: String, limits: PlistLimits, source: UnsafeRawBufferPointer) {
        self.displayPath = displayPath
        self.limits = limits
        self.source = source
        problems = DiagnosticList(file: displayPath)
    }

    /// An element being read.
    private struct Frame {
        enum Kind: Equatable {
            case plist, array, dict, key, scalar
            /// An element whose content is not read: one already reported, or a value without a key.
            case skipped
        }
        var kind: Kind
        var name: String
        var line: Int
        var text = ""
        var children: [PlistNode] = []
        /// Dict entries; a repeated key keeps its last value, at its last position (as
        /// Foundation does), found through `keyIndex` without a scan.
        var entries: [PlistNode.Entry?] = []
        var keyIndex: [String: Int] = [:]
        var pendingKey: (key: String, line: Int)?
    }

    mutating func run(_ reader: xmlTextReaderPtr) throws(PlistReadFailure) -> PlistNode {
        let collector = XMLErrorCollector()
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error else { return }
                Unmanaged<XMLErrorCollector>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
            }, Unmanaged.passUnretained(collector).toOpaque())
        while true {
            let status = xmlTextReaderRead(reader)
            if status != 1 || collector.first != nil { try refuseSubset(reader) }
            if let first = collector.first { throw failure(.malformedXML, first.message, line: first.line, column: first.column) }
            if status == 0 { break }
            guard status == 1 else { throw PlistReadFailure(diagnostics: [XMLPlistParser.emptyDocument(displayPath)]) }
            try visit(reader)
        }
        let found = problems.diagnostics
        if let root, found.isEmpty { return root }
        throw PlistReadFailure(diagnostics: found.isEmpty ? [XMLPlistParser.emptyDocument(displayPath)] : found)
    }

    private mutating func visit(_ reader: xmlTextReaderPtr) throws(PlistReadFailure) {
        switch xmlTextReaderNodeType(reader) {
        case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue):
            try checkDoctype(reader)
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            try checkDoctype(reader)
            let name = Self.string(xmlTextReaderConstName(reader))
            let line = Int(xmlGetLineNo(xmlTextReaderCurrentNode(reader)))
            try open(name, line: line)
            if xmlTextReaderIsEmptyElement(reader) == 1 { close() }
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            close()
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue),
            Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
            text(Self.string(xmlTextReaderConstValue(reader)), line: Int(xmlGetLineNo(xmlTextReaderCurrentNode(reader))))
        case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue):
            // Only an entity the file does not declare gets here (an external DTD's, never loaded).
            let name = Self.string(xmlTextReaderConstName(reader))
            problem(
                "entity '&\(name);' is not defined (property lists have only &amp; &lt; &gt; &quot; &apos; and character references)",
                line: Int(xmlGetLineNo(xmlTextReaderCurrentNode(reader))))
        default:
            break  // comments, processing instructions, the XML declaration
        }
    }

    /// Refuses a DOCTYPE with an internal subset. Checked again at the first element, when the
    /// subset has surely been read, and when libxml2 stops with an error (its own entity checks
    /// may stop a file before the first element).
    private mutating func checkDoctype(_ reader: xmlTextReaderPtr) throws(PlistReadFailure) {
        guard !checkedDoctype else { return }
        try refuseSubset(reader)
        if xmlTextReaderNodeType(reader) == Int32(XML_READER_TYPE_ELEMENT.rawValue) { checkedDoctype = true }
    }

    private func refuseSubset(_ reader: xmlTextReaderPtr) throws(PlistReadFailure) {
        if let document = xmlTextReaderCurrentDoc(reader), let subset = document.pointee.intSubset,
            subset.pointee.children != nil
        {
            throw failure(
                .plistDoctypeSubset,
                "the DOCTYPE declares entities or other markup (an internal subset); Foundation and plistlib refuse such property lists",
                line: doctypeLine())
        }
    }

    /// The line of `<!DOCTYPE` in the source, when the encoding lets it be found byte by byte.
    private func doctypeLine() -> Int? {
        let needle = Array("<!DOCTYPE".utf8)
        guard source.count >= needle.count else { return nil }
        var line = 1
        for index in 0...(source.count - needle.count) {
            if source[index] == 0x0A { line += 1 }
            if source[index] == needle[0], Array(source[index..<index + needle.count]) == needle { return line }
        }
        return nil
    }

    // MARK: Elements

    private mutating func open(_ name: String, line: Int) throws(PlistReadFailure) {
        guard let parent = stack.last else {
            if name == "plist" {
                stack.append(Frame(kind: .plist, name: name, line: line))
            } else {
                try openValue(name, line: line)
            }
            return
        }
        switch parent.kind {
        case .skipped:
            try count(line: line)
            stack.append(Frame(kind: .skipped, name: name, line: line))
        case .key, .scalar:
            problem("<\(name)> cannot be inside <\(parent.name)>", line: line)
            try count(line: line)
            stack.append(Frame(kind: .skipped, name: name, line: line))
        case .dict:
            if name == "key" {
                if let pending = parent.pendingKey { problem("key '\(pending.key)' has no value", line: line) }
                stack.append(Frame(kind: .key, name: name, line: line))
            } else if parent.pendingKey == nil {
                problem("<\(name)> in a <dict> has no <key> before it", line: line)
                try count(line: line)
                stack.append(Frame(kind: .skipped, name: name, line: line))
            } else {
                try openValue(name, line: line)
            }
        case .plist, .array:
            try openValue(name, line: line)
        }
    }

    private mutating func openValue(_ name: String, line: Int) throws(PlistReadFailure) {
        try count(line: line)
        let depth = stack.filter { $0.kind != .plist }.count + 1
        if depth > limits.maximumDepth {
            throw failure(
                .plistTooLarge,
                "\(fileName) nests values more than \(PlistLimits.grouped(limits.maximumDepth)) deep, the most a property list may",
                line: line)
        }
        switch name {
        case "array": stack.append(Frame(kind: .array, name: name, line: line))
        case "dict": stack.append(Frame(kind: .dict, name: name, line: line))
        case "string", "integer", "real", "true", "false", "date", "data":
            stack.append(Frame(kind: .scalar, name: name, line: line))
        default:
            problem("<\(name)> is not a property-list element", line: line)
            stack.append(Frame(kind: .skipped, name: name, line: line))
        }
    }

    private mutating func count(line: Int) throws(PlistReadFailure) {
        values += 1
        if values > limits.maximumValues {
            throw failure(
                .plistTooLarge,
                "\(fileName) holds more than \(PlistLimits.grouped(limits.maximumValues)) values, the most a property list may hold",
                line: line)
        }
    }

    private mutating func text(_ value: String, line: Int) {
        guard var top = stack.popLast() else { return }
        switch top.kind {
        case .key, .scalar:
            top.text += value
        case .plist, .array, .dict:
            if !value.allSatisfy(\.isWhitespace) {
                problem(
                    "unexpected text \(SourceText.quoted(value.trimmingCharacters(in: .whitespacesAndNewlines))) inside <\(top.name)>",
                    line: line)
            }
        case .skipped:
            break
        }
        stack.append(top)
    }

    private mutating func close() {
        guard let frame = stack.popLast() else { return }
        let node: PlistNode?
        switch frame.kind {
        case .skipped:
            node = nil
        case .key:
            if stack.last?.kind == .dict { stack[stack.count - 1].pendingKey = (frame.text, frame.line) }
            return
        case .plist:
            let values = frame.children
            if values.count == 1 {
                root = values[0]
            } else {
                problem("<plist> must contain exactly one value, found \(values.count)", line: frame.line)
            }
            return
        case .array:
            node = PlistNode(.array(frame.children), line: frame.line)
        case .dict:
            if let pending = frame.pendingKey { problem("key '\(pending.key)' has no value", line: pending.line) }
            node = PlistNode(.dictionary(frame.entries.compactMap { $0 }), line: frame.line)
        case .scalar:
            node = scalar(frame)
        }
        guard let node else { return }
        guard !stack.isEmpty else {
            root = node
            return
        }
        attach(node)
    }

    private mutating func attach(_ node: PlistNode) {
        var parent = stack.removeLast()
        defer { stack.append(parent) }
        switch parent.kind {
        case .plist, .array:
            parent.children.append(node)
        case .dict:
            guard let (key, keyLine) = parent.pendingKey else { return }
            parent.pendingKey = nil
            if let earlier = parent.keyIndex[key] { parent.entries[earlier] = nil }
            parent.keyIndex[key] = parent.entries.count
            parent.entries.append(PlistNode.Entry(key: key, keyLine: keyLine, node: node))
        case .key, .scalar, .skipped:
            break
        }
    }

    private mutating func scalar(_ frame: Frame) -> PlistNode? {
        let line = frame.line
        switch frame.name {
        case "string":
            return PlistNode(.string(frame.text), line: line)
        case "integer":
            let t = frame.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let i = XMLPlistParser.integer(t) else { return invalid("\(SourceText.quoted(t)) is not an integer", line) }
            return PlistNode(.integer(i), line: line)
        case "real":
            let t = frame.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let r = Double(t) else { return invalid("\(SourceText.quoted(t)) is not a real number", line) }
            return PlistNode(.real(r), line: line)
        case "true": return PlistNode(.boolean(true), line: line)
        case "false": return PlistNode(.boolean(false), line: line)
        case "date":
            guard let d = PlistDate.parse(frame.text) else {
                return invalid("\(SourceText.quoted(frame.text)) is not a plist date; expected yyyy-MM-ddTHH:mm:ssZ", line)
            }
            return PlistNode(.date(d), line: line)
        default:  // data
            let t = frame.text.filter { !$0.isWhitespace }
            guard let d = Data(base64Encoded: t) else { return invalid("<data> is not valid base64", line) }
            return PlistNode(.data(d), line: line)
        }
    }

    // MARK: Reporting

    private var fileName: String { (displayPath as NSString).lastPathComponent }

    private mutating func invalid(_ message: String, _ line: Int) -> PlistNode? {
        problem(message, line: line)
        return nil
    }

    private mutating func problem(_ message: @autoclosure () -> String, line: Int) {
        problems.add(.malformedPlist, message(), line: line)
    }

    private func failure(_ code: DiagnosticCode, _ message: String, line: Int?, column: Int? = nil) -> PlistReadFailure {
        PlistReadFailure(diagnostics: [
            Diagnostic(code, message, at: SourceLocation(file: displayPath, line: line, column: column))
        ])
    }

    private static func string(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
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
