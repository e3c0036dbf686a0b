import Foundation
import NewsstandCore

/// A zip of stored (uncompressed) entries built in memory, for the tests that run with no child
/// process (`ZipFixture` asks Python's `zipfile`). Local headers, the central directory and
/// the end record as APPNOTE describes them, without data descriptors or extra fields.
public enum StoredZip {
    /// One entry of a test archive (what `ZipFixture.Entry` describes, built here in memory).
    public enum Entry: Sendable, Equatable {
        /// A file with text content.
        case text(String, String)
        /// A file of `count` reproducible pseudo-random bytes (`noise`).
        case random(String, count: Int, seed: Int)
        /// A file holding `bytes`.
        case bytes(String, Data)
        /// A symbolic link entry pointing at `target`.
        case symlink(String, target: String)
        /// An explicit folder entry (its name ends with `/`).
        case folder(String)

        /// The entry's name in the archive.
        public var name: String {
            switch self {
            case .text(let name, _), .random(let name, _, _), .bytes(let name, _), .symlink(let name, _): name
            case .folder(let name): name.hasSuffix("/") ? name : name + "/"
            }
        }

        /// What the entry stores (a link's target for a link).
        public var bytes: Data {
            switch self {
            case .text(_, let text): Data(text.utf8)
            case .random(_, let count, let seed): StoredZip.noise(count: count, seed: UInt64(seed))
            case .bytes(_, let bytes): bytes
            case .symlink(_, let target): Data(target.utf8)
            case .folder: Data()
            }
        }

        /// The Unix mode the central directory gives it.
        public var mode: UInt32 {
            switch self {
            case .symlink: 0o120777
            case .folder: 0o040755
            default: 0o100644
            }
        }

        /// A regular file's name and bytes (nil for a link or a folder).
        public var file: (name: String, bytes: Data)? {
            switch self {
            case .symlink, .folder: nil
            default: (name, bytes)
            }
        }
    }

    /// The archive of `entries`, in order.
    public static func make(_ entries: [Entry]) -> Data {
        make(entries.map { ($0.name, $0.bytes, $0.mode) })
    }

    /// The archive of `entries` (name, bytes), regular files, in order.
    public static func make(_ entries: [(name: String, bytes: Data)]) -> Data {
        make(entries.map { ($0.name, $0.bytes, 0o100644) })
    }

    private static func make(_ entries: [(name: String, bytes: Data, mode: UInt32)]) -> Data {
        var out = Data()
        var central = Data()
        for entry in entries {
            let name = Data(entry.name.utf8)
            let crc = crc32(entry.bytes)
            let offset = UInt32(out.count)
            // Local header: signature, version 20, flags (bit 11: UTF-8 name), stored, no time.
            out.append(le32: 0x0403_4b50)
            out.append(le16: 20)
            out.append(le16: 0x0800)
            out.append(le16: 0)
            out.append(le32: 0x0021_0000)  // 1980-01-01 00:00
            out.append(le32: crc)
            out.append(le32: UInt32(entry.bytes.count))
            out.append(le32: UInt32(entry.bytes.count))
            out.append(le16: UInt16(name.count))
            out.append(le16: 0)
            out.append(name)
            out.append(entry.bytes)
            central.append(le32: 0x0201_4b50)
            central.append(le16: 0x0314)  // made by Unix, version 20
            central.append(le16: 20)
            central.append(le16: 0x0800)
            central.append(le16: 0)
            central.append(le32: 0x0021_0000)
            central.append(le32: crc)
            central.append(le32: UInt32(entry.bytes.count))
            central.append(le32: UInt32(entry.bytes.count))
            central.append(le16: UInt16(name.count))
            central.append(le16: 0)
            central.append(le16: 0)
            central.append(le16: 0)
            central.append(le16: 0)
            central.append(le32: entry.mode << 16 | (entry.mode & 0o040000 != 0 ? 0x10 : 0))
            central.append(le32: offset)
            central.append(name)
        }
        let centralOffset = UInt32(out.count)
        out.append(central)
        out.append(le32: 0x0605_4b50)
        out.append(le16: 0)
        out.append(le16: 0)
        out.append(le16: UInt16(entries.count))
        out.append(le16: UInt16(entries.count))
        out.append(le32: UInt32(central.count))
        out.append(le32: centralOffset)
        out.append(le16: 0)
        return out
    }

    /// Reproducible incompressible bytes (xorshift), so a bundle is larger than a chunk. Made
    /// once per count and seed in a test process (a bundle of pages asks for the same ones often).
    public static func noise(count: Int, seed: UInt64) -> Data {
        if let made = noiseMade.withLock({ $0[NoiseKey(count: count, seed: seed)] }) { return made }
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var data = Data(count: count)
        data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) in
            for index in 0..<count {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                buffer[index] = UInt8(truncatingIfNeeded: state)
            }
        }
        noiseMade.withLock { $0[NoiseKey(count: count, seed: seed)] = data }
        return data
    }

    private struct NoiseKey: Hashable {
        var count: Int
        var seed: UInt64
    }
    private static let noiseMade = Locked([NoiseKey: Data]())

    /// zip's CRC-32 (reflected, polynomial 0xEDB88320), with a table of the 256 byte values
    /// worked out bit by bit here.
    public static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        crcTable.withUnsafeBufferPointer { table in
            bytes.withUnsafeBytes { buffer in
                for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            }
        }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { value in
        var crc = UInt32(value)
        for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        return crc
    }
}

extension Data {
    fileprivate mutating func append(le16 value: UInt16) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
    fileprivate mutating func append(le32 value: UInt32) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
