import Foundation
import NewsstandCore

/// Reads a binary property list (`bplist00`) into `PlistNode`s, within `PlistLimits`.
///
/// Our own reader rather than Foundation's: a binary plist names its objects by number, so one
/// object can be used many times, and Foundation expands every use. Twelve levels of arrays that
/// each hold the next level ten times is 490 bytes; Foundation took 627 MB for seven levels.
/// Here every use counts against the value limit as it is reached, and nesting against the
/// depth limit (which also ends a file whose objects contain themselves), so the work is
/// bounded by the limits whatever the file says.
struct BinaryPlistParser {
    let displayPath: String
    let limits: PlistLimits

    private struct Layout {
        var offsetSize: Int
        var referenceSize: Int
        var objectCount: Int
        var top: Int
        var tableOffset: Int
    }

    private struct Failure: Error {
        var code: DiagnosticCode
        var message: String
    }

    func parse(data: Data) throws(PlistReadFailure) -> PlistNode {
        let bytes = [UInt8](data)
        do {
            let layout = try Self.layout(bytes)
            var walk = Walk(bytes: bytes, layout: layout, limits: limits, fileName: (displayPath as NSString).lastPathComponent)
            return try walk.node(layout.top, depth: 1)
        } catch let failure as Failure {
            throw PlistReadFailure(diagnostics: [Diagnostic(failure.code, failure.message, at: SourceLocation(file: displayPath))]
            )
        } catch {
            throw PlistReadFailure(diagnostics: [
                Diagnostic(.malformedPlist, "binary property list cannot be read", at: SourceLocation(file: displayPath))
            ])
        }
    }

    private static func malformed(_ reason: String) -> Failure {
        Failure(code: .malformedPlist, message: "binary property list is malformed: \(reason)")
    }

    /// The trailer (the last 32 bytes): offset and reference sizes, object count, top object,
    /// offset table position; every number checked against the file's size.
    private static func layout(_ bytes: [UInt8]) throws -> Layout {
        guard bytes.count >= 8 + 1 + 32, bytes.starts(with: Array("bplist00".utf8)) else {
            throw malformed("not a bplist00 file")
        }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = try int(bytes, at: trailer + 8)
        let top = try int(bytes, at: trailer + 16)
        let tableOffset = try int(bytes, at: trailer + 24)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw malformed("bad offset or reference size")
        }
        guard objectCount >= 1, top < objectCount, tableOffset >= 9, tableOffset < trailer,
            objectCount <= (trailer - tableOffset) / offsetSize
        else { throw malformed("the offset table does not fit the file") }
        return Layout(
            offsetSize: offsetSize, referenceSize: referenceSize, objectCount: objectCount, top: top, tableOffset: tableOffset)
    }

    /// An 8-byte big-endian count that must fit a non-negative `Int`.
    private static func int(_ bytes: [UInt8], at offset: Int) throws -> Int {
        let value = bytes[offset..<offset + 8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard value <= UInt64(Int.max) else { throw malformed("a count is out of range") }
        return Int(value)
    }

    /// A walk from the top object, expanding every use of an object (as a reader would).
    private struct Walk {
        let bytes: [UInt8]
        let layout: Layout
        let limits: PlistLimits
        let fileName: String
        var values = 0

        init(bytes: [UInt8], layout: Layout, limits: PlistLimits, fileName: String) {
            self.bytes = bytes
            self.layout = layout
            self.limits = limits
            self.fileName = fileName
        }

        mutating func node(_ object: Int, depth: Int) throws -> PlistNode {
            values += 1
            guard values <= limits.maximumValues else {
                throw Failure(
                    code: .plistTooLarge,
                    message:
                        "\(fileName) holds more than \(PlistLimits.grouped(limits.maximumValues)) values, the most a property list may hold"
                )
            }
            guard depth <= limits.maximumDepth else {
                throw Failure(
                    code: .plistTooLarge,
                    message:
                        "\(fileName) nests values more than \(PlistLimits.grouped(limits.maximumDepth)) deep, the most a property list may"
                )
            }
            var offset = try objectOffset(object)
            let marker = try byte(at: offset)
            offset += 1
            let info = Int(marker & 0x0F)
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return PlistNode(.boolean(false), line: 0)
                case 0x09: return PlistNode(.boolean(true), line: 0)
                default: throw malformed("null and fill objects have no plist value")
                }
            case 0x1:
                return PlistNode(.integer(try integer(at: offset, width: 1 << info)), line: 0)
            case 0x2:
                return PlistNode(.real(try real(at: offset, width: 1 << info)), line: 0)
            case 0x3:
                guard marker == 0x33 else { throw malformed("bad date marker") }
                // Seconds since 2001-01-01, as Foundation counts them; only dates an XML plist can write.
                let date = Date(timeIntervalSinceReferenceDate: try real(at: offset, width: 8))
                // 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
                guard PlistWriter.writableSeconds.contains(date.timeIntervalSince1970.rounded(.down)) else {
                    throw malformed("a date is outside the years 0001 to 9999")
                }
                return PlistNode(.date(date), line: 0)
            case 0x4:
                let (count, start) = try length(info, at: offset)
                return PlistNode(.data(Data(try slice(start, count))), line: 0)
            case 0x5:
                let (count, start) = try length(info, at: offset)
                let ascii = try slice(start, count)
                guard ascii.allSatisfy({ $0 < 0x80 }) else { throw malformed("an ASCII string has non-ASCII bytes") }
                return PlistNode(.string(try checked(String(decoding: ascii, as: UTF8.self))), line: 0)
            case 0x6:
                let (count, start) = try length(info, at: offset)
                guard count <= Int.max / 2 else { throw malformed("a string is too long") }
                let raw = Array(try slice(start, count * 2))
                let units = stride(from: 0, to: raw.count, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
                guard let text = String(validating: units, as: UTF16.self) else {
                    throw malformed("a string is not valid UTF-16")
                }
                return PlistNode(.string(try checked(text)), line: 0)
            case 0xA:
                let (count, start) = try length(info, at: offset)
                var children: [PlistNode] = []
                for index in 0..<count {
                    children.append(try node(try reference(start, index), depth: depth + 1))
                }
                return PlistNode(.array(children), line: 0)
            case 0xD:
                let (count, start) = try length(info, at: offset)
                // A repeated key keeps its last value, at its last position (as the XML reader does).
                var entries: [PlistNode.Entry?] = []
                var keyIndex: [String: Int] = [:]
                for index in 0..<count {
                    let keyNode = try node(try reference(start, index), depth: depth + 1)
                    values -= 1  // keys are not values
                    guard let key = keyNode.string else { throw malformed("a dictionary key is not a string") }
                    let value = try node(try reference(start, count + index), depth: depth + 1)
                    if let earlier = keyIndex[key] { entries[earlier] = nil }
                    keyIndex[key] = entries.count
                    entries.append(PlistNode.Entry(key: key, keyLine: 0, node: value))
                }
                return PlistNode(.dictionary(entries.compactMap { $0 }), line: 0)
            default:
                throw malformed("object type 0x\(String(marker >> 4, radix: 16)) (UID, set or unknown) has no plist value")
            }
        }

        private func byte(at offset: Int) throws -> UInt8 {
            guard offset >= 0, offset < layout.tableOffset else { throw malformed("an object runs past the object area") }
            return bytes[offset]
        }

        private func slice(_ start: Int, _ count: Int) throws -> ArraySlice<UInt8> {
            guard count >= 0, start >= 0, start <= layout.tableOffset, count <= layout.tableOffset - start else {
                throw malformed("an object runs past the object area")
            }
            return bytes[start..<start + count]
        }

        private func unsigned(_ start: Int, _ width: Int) throws -> UInt64 {
            try slice(start, width).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }

        private func objectOffset(_ object: Int) throws -> Int {
            guard object >= 0, object < layout.objectCount else { throw malformed("a reference names no object") }
            let value = try unsignedInTable(layout.tableOffset + object * layout.offsetSize, layout.offsetSize)
            guard value >= 8, value < UInt64(layout.tableOffset) else { throw malformed("an object offset is out of range") }
            return Int(value)
        }

        private func unsignedInTable(_ start: Int, _ width: Int) throws -> UInt64 {
            guard start + width <= bytes.count - 32 else { throw malformed("the offset table is truncated") }
            return bytes[start..<start + width].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }

        private func reference(_ start: Int, _ index: Int) throws -> Int {
            guard index <= (Int.max - start) / layout.referenceSize else { throw malformed("a container is too long") }
            let value = try unsigned(start + index * layout.referenceSize, layout.referenceSize)
            guard value < UInt64(layout.objectCount) else { throw malformed("a reference names no object") }
            return Int(value)
        }

        /// A count held in the marker's low nibble, or (0xF) in the integer object after it.
        private func length(_ info: Int, at offset: Int) throws -> (count: Int, start: Int) {
            guard info == 0xF else { return (info, offset) }
            let marker = try byte(at: offset)
            guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw malformed("bad length") }
            let width = 1 << Int(marker & 0x0F)
            let value = try unsigned(offset + 1, width)
            guard value <= UInt64(layout.tableOffset) else { throw malformed("a length runs past the object area") }
            return (Int(value), offset + 1 + width)
        }

        private func integer(at offset: Int, width: Int) throws -> Int {
            switch width {
            case 1, 2, 4: return Int(try unsigned(offset, width))
            case 8: return Int(Int64(bitPattern: try unsigned(offset, 8)))
            case 16:
                // Foundation writes 16 bytes for unsigned values above Int64.max: not a plist integer here.
                let high = try unsigned(offset, 8)
                let low = try unsigned(offset + 8, 8)
                guard high == 0, low <= UInt64(Int.max) else { throw malformed("an integer does not fit 64 bits") }
                return Int(low)
            default: throw malformed("bad integer width")
            }
        }

        private func real(at offset: Int, width: Int) throws -> Double {
            switch width {
            case 4: return Double(Float(bitPattern: UInt32(try unsigned(offset, 4))))
            case 8: return Double(bitPattern: try unsigned(offset, 8))
            default: throw malformed("bad real width")
            }
        }

        /// A string an XML property list can carry (the bundle's plists are written as XML).
        private func checked(_ text: String) throws -> String {
            if let bad = text.unicodeScalars.first(where: { !Markup.isXMLCharacter($0) }) {
                throw Failure(
                    code: .malformedPlist,
                    message: "a string holds U+\(String(format: "%04X", bad.value)), which an XML property list cannot carry")
            }
            return text
        }
    }
}
