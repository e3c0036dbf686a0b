import Foundation

/// The index of one bundle, published beside it so a reader can update an installed issue by
/// fetching only the entries that changed, with HTTP `Range` requests into the new bundle.
///
/// One JSON object, written canonically by `encoded()` (the same index gives the same bytes):
///
///     {"format":"newsstand-bundle-index","version":1,
///      "bundle":{"size":1234,"sha256":"…"},
///      "entries":[
///     {"name":"1-0.png","size":99,"sha256":"…","crc32":305419896,"method":"stored","header":0,"data":37,"length":99},
///     …]}
///
/// Each entry is one file of the zip, in the zip's order: its path, its uncompressed size and
/// SHA-256, its CRC-32 and compression method as the zip records them, and where its bytes are
/// in the bundle: `header` is the offset of its local file header, `data` the offset of its
/// (possibly compressed) data, `length` the data's length. The bytes `header..<data+length` are
/// a complete local record (the bundles carry sizes and CRC in the local header, no data
/// descriptor), so a fetched range can be read by a streaming zip reader as it is.
///
/// The catalog entry gives the index's own size and SHA-256 (`ContentIndexSize`,
/// `ContentIndexSHA256`, and the `Retina…` pair for the `@2x` bundle's index), so a reader can
/// trust it; `decode(_:limits:)` still checks every field, as an index is input from outside.
public struct BundleIndex: Sendable, Equatable {
    /// The `format` value every index carries.
    public static let format = "newsstand-bundle-index"
    /// The version this code writes and reads.
    public static let version = 1

    /// How an entry's data is stored in the zip.
    public enum Method: String, Sendable, Equatable {
        /// Stored as is: `length == size`.
        case stored
        /// Raw DEFLATE.
        case deflated
    }

    /// One file of the bundle.
    public struct Entry: Sendable, Equatable {
        /// The entry's path inside the bundle (a `SafeRelativePath`).
        public var name: String
        /// Uncompressed size in bytes.
        public var size: Int64
        /// SHA-256 of the uncompressed bytes, lowercase hex.
        public var sha256: String
        /// CRC-32 as the zip records it.
        public var crc32: UInt32
        /// How the data is stored.
        public var method: Method
        /// Offset of the entry's local file header in the bundle.
        public var headerOffset: Int64
        /// Offset of the entry's data (right after the local header) in the bundle.
        public var dataOffset: Int64
        /// Length of the entry's data as stored (compressed length for `deflated`).
        public var dataLength: Int64

        /// Creates an entry.
        public init(
            name: String, size: Int64, sha256: String, crc32: UInt32, method: Method, headerOffset: Int64,
            dataOffset: Int64, dataLength: Int64
        ) {
            self.name = name
            self.size = size
            self.sha256 = sha256
            self.crc32 = crc32
            self.method = method
            self.headerOffset = headerOffset
            self.dataOffset = dataOffset
            self.dataLength = dataLength
        }

        /// The bytes of the whole local record: header, name, extra field and data.
        public var recordRange: Range<Int64> { headerOffset..<(dataOffset + dataLength) }
    }

    /// Size in bytes of the bundle the index describes.
    public var bundleSize: Int64
    /// SHA-256 of the bundle, lowercase hex (the catalog's `ContentSHA256`).
    public var bundleSHA256: String
    /// The bundle's files, in the order of their local headers.
    public var entries: [Entry]

    /// Creates an index.
    public init(bundleSize: Int64, bundleSHA256: String, entries: [Entry]) {
        self.bundleSize = bundleSize
        self.bundleSHA256 = bundleSHA256
        self.entries = entries
    }

    /// The index's file name beside a bundle: `a-1.3fa9c1e2.zip` → `a-1.3fa9c1e2.index.json`
    /// (the `@2x` bundle's index by the `@2x` rule: `a-1.3fa9c1e2.index@2x.json`).
    public static func fileName(forBundle bundle: String) -> String {
        let stem = bundle.hasSuffix(".zip") ? String(bundle.dropLast(4)) : bundle
        return stem + ".index.json"
    }

    /// The canonical JSON: fixed key order, one entry per line, no floating point, so the same
    /// index always gives the same bytes.
    public func encoded() -> Data {
        var out = "{\"format\":\"\(Self.format)\",\"version\":\(Self.version),\n"
        out += "\"bundle\":{\"size\":\(bundleSize),\"sha256\":\(JSONText.quoted(bundleSHA256))},\n\"entries\":["
        for (i, e) in entries.enumerated() {
            out += i == 0 ? "\n" : ",\n"
            out += "{\"name\":\(JSONText.quoted(e.name)),\"size\":\(e.size),\"sha256\":\(JSONText.quoted(e.sha256)),"
            out += "\"crc32\":\(e.crc32),\"method\":\"\(e.method.rawValue)\",\"header\":\(e.headerOffset),"
            out += "\"data\":\(e.dataOffset),\"length\":\(e.dataLength)}"
        }
        out += "\n]}\n"
        return Data(out.utf8)
    }
}

/// What `BundleIndex.decode` accepts: an index is input from outside and is capped before it is
/// parsed.
public struct BundleIndexLimits: Sendable, Equatable {
    /// Largest index file accepted (default 16 MiB: about 100,000 entries).
    public var maximumBytes: Int
    /// Most entries accepted (default 100,000).
    public var maximumEntries: Int

    /// Creates limits.
    public init(maximumBytes: Int = 16 << 20, maximumEntries: Int = 100_000) {
        self.maximumBytes = maximumBytes
        self.maximumEntries = maximumEntries
    }
}

/// Why an index was refused; `entry` names the offending entry when there is one.
public struct BundleIndexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The entry's name (or position) when one entry is at fault.
    public let entry: String?
    /// What is wrong.
    public let reason: String

    /// Creates an error.
    public init(entry: String? = nil, _ reason: String) {
        self.entry = entry
        self.reason = reason
    }

    /// "bundle index: entry '../x': name has a '..' component".
    public var description: String {
        entry.map { "bundle index: entry '\($0)': \(reason)" } ?? "bundle index: \(reason)"
    }
}

extension BundleIndex {
    /// Smallest local file header (APPNOTE 4.3.7): 30 fixed bytes before the name.
    static let localHeaderFixedBytes: Int64 = 30
    /// Largest local header: fixed bytes, a name and an extra field of at most 65,535 each.
    static let localHeaderMaxBytes: Int64 = 30 + 65_535 + 65_535

    /// Reads and checks an index: format and version, every name a `SafeRelativePath`, unique
    /// and never also the folder of another entry (`d` beside `d/e.png`), hashes 64 lowercase hex digits, sizes and offsets non-negative, each record
    /// inside the bundle (`data + length <= bundle.size`), records in order and not
    /// overlapping, a local header of a possible length (30 bytes to 30 + 2 × 65,535), and a
    /// stored entry's length equal to its size. Refuses anything else, naming the entry.
    public static func decode(_ data: Data, limits: BundleIndexLimits = BundleIndexLimits()) throws(BundleIndexError)
        -> BundleIndex
    {
        guard data.count <= limits.maximumBytes else {
            throw BundleIndexError("is \(data.count) bytes, more than the limit of \(limits.maximumBytes)")
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: data)
        } catch {
            throw BundleIndexError("is not an index of this format (\(Self.describe(error)))")
        }
        guard wire.format == format else { throw BundleIndexError("format is '\(wire.format)', not '\(format)'") }
        guard wire.version == version else { throw BundleIndexError("version \(wire.version) is not \(version)") }
        guard wire.entries.count <= limits.maximumEntries else {
            throw BundleIndexError("has \(wire.entries.count) entries, more than the limit of \(limits.maximumEntries)")
        }
        guard wire.bundle.size > 0 else { throw BundleIndexError("bundle size \(wire.bundle.size) is not positive") }
        guard isSHA256(wire.bundle.sha256) else { throw BundleIndexError("bundle sha256 is not 64 lowercase hex digits") }

        var names = EntryNames()
        var entries: [Entry] = []
        entries.reserveCapacity(wire.entries.count)
        var end: Int64 = 0
        for (position, w) in wire.entries.enumerated() {
            let label = SafeRelativePath.problem(in: w.name) == nil ? w.name : "#\(position + 1)"
            func refuse(_ reason: String) -> BundleIndexError { BundleIndexError(entry: label, reason) }
            if let problem = SafeRelativePath.problem(in: w.name) { throw refuse("name \(problem)") }
            if let problem = names.insert(w.name) { throw refuse(problem) }
            guard let method = Method(rawValue: w.method) else { throw refuse("method '\(w.method)' is unknown") }
            guard isSHA256(w.sha256) else { throw refuse("sha256 is not 64 lowercase hex digits") }
            guard let crc = UInt32(exactly: w.crc32) else { throw refuse("crc32 \(w.crc32) is not a 32-bit value") }
            guard w.size >= 0, w.header >= 0, w.length >= 0 else { throw refuse("a size or offset is negative") }
            guard w.header >= end else { throw refuse("its record overlaps the previous one or is out of order") }
            let headerBytes = w.data.subtractingReportingOverflow(w.header)
            guard !headerBytes.overflow, headerBytes.partialValue >= localHeaderFixedBytes,
                headerBytes.partialValue <= localHeaderMaxBytes
            else { throw refuse("its data does not follow a local header of a possible size") }
            let stop = w.data.addingReportingOverflow(w.length)
            guard !stop.overflow, stop.partialValue <= wire.bundle.size else {
                throw refuse("its data ends past the end of the bundle (\(wire.bundle.size) bytes)")
            }
            guard method != .stored || w.length == w.size else {
                throw refuse("stored data of \(w.length) bytes for a size of \(w.size)")
            }
            end = stop.partialValue
            entries.append(
                Entry(
                    name: w.name, size: w.size, sha256: w.sha256, crc32: crc, method: method, headerOffset: w.header,
                    dataOffset: w.data, dataLength: w.length))
        }
        return BundleIndex(bundleSize: wire.bundle.size, bundleSHA256: wire.bundle.sha256, entries: entries)
    }

    /// The names seen so far, as files and as the folders they lie in: a name may appear once,
    /// and never as both a file and a folder (`d` and `d/e.png`), which no folder can hold.
    private struct EntryNames {
        private var files = Set<String>()
        /// Each folder some entry lies in, and the first such entry.
        private var folders: [String: String] = [:]

        /// Adds `name` (a `SafeRelativePath`); why it cannot be added, or nil.
        mutating func insert(_ name: String) -> String? {
            guard files.insert(name).inserted else { return "name appears twice" }
            if let inside = folders[name] { return "name is a file of the bundle and the folder of '\(inside)'" }
            var folder = ""
            for component in name.split(separator: "/").dropLast() {
                folder += folder.isEmpty ? String(component) : "/" + component
                if files.contains(folder) { return "name is inside '\(folder)', which is a file of the bundle" }
                if folders[folder] == nil { folders[folder] = name }
            }
            return nil
        }
    }

    static func isSHA256(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "'\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        default: "not valid JSON"
        }
    }

    /// The JSON shape as decoded, before any check.
    private struct Wire: Decodable {
        struct Bundle: Decodable {
            let size: Int64
            let sha256: String
        }
        struct Item: Decodable {
            let name: String
            let size: Int64
            let sha256: String
            let crc32: Int64
            let method: String
            let header: Int64
            let data: Int64
            let length: Int64
        }
        let format: String
        let version: Int
        let bundle: Bundle
        let entries: [Item]
    }
}

/// JSON string quoting (RFC 8259 §7): quote, backslash and control characters escaped; other
/// characters as UTF-8.
enum JSONText {
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20: out += String(format: "\\u%04x", c.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
