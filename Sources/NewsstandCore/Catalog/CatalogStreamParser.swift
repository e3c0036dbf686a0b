import Foundation

/// Reads `issues.plist` as its bytes arrive, one entry at a time, so that a catalog of
/// 100,000 issues is never held whole in memory: neither its text nor a Foundation object tree
/// of it (`PropertyListSerialization` took 4.7 times the catalog's size: 490 MB for 104 MB).
/// Each entry becomes a `CatalogEntry` (`CatalogEntry.init(plist:)`); the first byte that
/// breaks the format stops the transfer. `Catalog.decode` reads a whole catalog with it.
///
/// The XML property-list format as Foundation writes and reads it: the XML declaration,
/// comments, processing instructions, a DOCTYPE without an internal subset (entity
/// declarations are refused, as Foundation refuses them), CDATA sections, the five predefined
/// entities and character references. Binary property lists are refused: Foundation's object
/// tree of one takes up to 75 times its size (610 MB for 8 MB), which a server could abuse.
public struct CatalogStreamParser {
    private enum Mode { case content, markup, comment, instruction, cdata, reference }
    private var mode = Mode.content
    private var markup: [UInt8] = []
    private var reference: [UInt8] = []
    private var tail: (UInt8, UInt8) = (0, 0)
    private var brackets = 0
    private var offset = 0
    private var head: [UInt8] = []
    /// Text where the document should start, kept until six bytes tell a binary plist apart.
    private var earlyText: Int?
    private var values = CatalogValueBuilder()

    /// A tag longer than this is not a property-list tag (nor a DOCTYPE: Foundation's has 103
    /// bytes). Comments and processing instructions are skipped without being kept.
    private static let maxMarkup = 4096

    /// A parser at the start of a catalog.
    public init() {}

    /// Takes the next bytes of the catalog.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) throws(CatalogError) {
        var index = 0
        while index < bytes.count {
            if mode == .content, head.count == 8 {
                // The bulk of a catalog: runs of text in a value, or white space between values.
                var end = index
                if values.collectsText {
                    while end < bytes.count, bytes[end] != Ascii.lessThan, bytes[end] != Ascii.ampersand { end += 1 }
                    values.text.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index..<end]))
                } else {
                    while end < bytes.count, Ascii.isSpace(bytes[end]) { end += 1 }
                }
                offset += end - index
                index = end
                guard index < bytes.count else { break }
            }
            let byte = bytes[index]
            if head.count < 8 { head.append(byte) }
            if let earlyText, head.count >= 6 { throw malformed("text outside a value", at: earlyText) }
            try step(byte)
            offset += 1
            index += 1
        }
    }

    /// Ends the catalog: the entries and the problems of entries that were skipped.
    public mutating func finish() throws(CatalogError) -> (entries: [CatalogEntry], problems: [CatalogError]) {
        if let earlyText { throw malformed("text outside a value", at: earlyText) }
        guard mode == .content else { throw malformed("the catalog ends inside a tag, comment or CDATA section") }
        do {
            try values.finish()
        } catch {
            throw malformed(error.reason)
        }
        if values.rootIsNotArray { throw .malformed(reason: "the root is not an array") }
        return (values.entries, values.problems)
    }

    private mutating func step(_ byte: UInt8) throws(CatalogError) {
        switch mode {
        case .content:
            if byte == Ascii.lessThan {
                mode = .markup
                markup.removeAll(keepingCapacity: true)
            } else if values.collectsText {
                if byte == Ascii.ampersand {
                    mode = .reference
                    reference.removeAll(keepingCapacity: true)
                } else {
                    values.text.append(byte)
                }
            } else if !Ascii.isSpace(byte), !(offset < 3 && head.starts(with: [0xEF, 0xBB, 0xBF].prefix(offset + 1))) {
                guard offset >= 6 else {
                    earlyText = earlyText ?? offset
                    return
                }
                throw malformed("text outside a value")
            }
        case .markup:
            if byte == Ascii.greaterThan {
                mode = .content
                try tag()
                return
            }
            markup.append(byte)
            if markup == Ascii.commentStart {
                mode = .comment
                tail = (0, 0)
            } else if markup == Ascii.cdataStart {
                guard values.collectsText else { throw malformed("a CDATA section outside a string") }
                mode = .cdata
                brackets = 0
            } else if markup.count == 1, byte == Ascii.question {
                mode = .instruction
                tail = (0, 0)
            } else if markup.count > Self.maxMarkup {
                throw malformed("a tag longer than \(Self.maxMarkup) bytes")
            }
        case .comment, .instruction:
            let ended =
                byte == Ascii.greaterThan && (mode == .comment ? tail == (Ascii.dash, Ascii.dash) : tail.1 == Ascii.question)
            tail = (tail.1, byte)
            if ended { mode = .content }
        case .cdata:
            if byte == Ascii.rightBracket {
                brackets += 1
            } else if byte == Ascii.greaterThan, brackets >= 2 {
                values.text.append(contentsOf: repeatElement(Ascii.rightBracket, count: brackets - 2))
                mode = .content
            } else {
                values.text.append(contentsOf: repeatElement(Ascii.rightBracket, count: brackets))
                brackets = 0
                values.text.append(byte)
            }
        case .reference:
            if byte == Ascii.semicolon {
                try appendReference()
                mode = .content
            } else {
                reference.append(byte)
                guard reference.count <= 10 else { throw malformed("an unterminated entity reference") }
            }
        }
    }

    /// A complete tag (the bytes between `<` and `>`).
    private mutating func tag() throws(CatalogError) {
        guard let first = markup.first else { throw malformed("an empty tag") }
        if first == Ascii.exclamation {
            guard markup.starts(with: Ascii.doctypeStart), !values.hasStarted else { throw malformed("a misplaced declaration") }
            guard !markup.contains(Ascii.leftBracket) else {
                throw malformed("a DOCTYPE with an internal subset (entity declarations are not allowed)")
            }
            return
        }
        do {
            if first == Ascii.slash {
                try values.end(Self.name(markup.dropFirst()))
            } else {
                let selfClosing = markup.last == Ascii.slash
                let name = Self.name(selfClosing ? markup.dropLast() : markup[...])
                try values.start(name)
                if selfClosing { try values.end(name) }
            }
        } catch {
            throw malformed(error.reason)
        }
    }

    /// The element name at the start of a tag's bytes (attributes ignored).
    private static func name(_ bytes: ArraySlice<UInt8>) -> String {
        let end = bytes.firstIndex { Ascii.isSpace($0) } ?? bytes.endIndex
        return String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
    }

    /// `&lt;`, `&#60;`, `&#x3C;` and the like, inside a value.
    private mutating func appendReference() throws(CatalogError) {
        let name = String(decoding: reference, as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch name {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            } else {
                throw malformed("an unknown entity '&\(name);'")
            }
        }
        guard let scalar, scalar.value != 0 else { throw malformed("an invalid character reference '&\(name);'") }
        values.text.append(contentsOf: String(Character(scalar)).utf8)
    }

    private func malformed(_ detail: String, at position: Int? = nil) -> CatalogError {
        if head.starts(with: Array("bplist".utf8)) {
            return .malformed(reason: "a binary property list; catalogs are read as XML property lists only")
        }
        return .malformed(reason: "not a property list: \(detail) (at byte \(position ?? offset))")
    }
}

/// The bytes the parser looks for.
enum Ascii {
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")
    static let ampersand = UInt8(ascii: "&")
    static let semicolon = UInt8(ascii: ";")
    static let slash = UInt8(ascii: "/")
    static let question = UInt8(ascii: "?")
    static let exclamation = UInt8(ascii: "!")
    static let dash = UInt8(ascii: "-")
    static let leftBracket = UInt8(ascii: "[")
    static let rightBracket = UInt8(ascii: "]")
    static let commentStart = Array("!--".utf8)
    static let cdataStart = Array("![CDATA[".utf8)
    static let doctypeStart = Array("!DOCTYPE".utf8)

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
}
