import Foundation

/// A zip of stored (uncompressed) entries built in memory, for the tests that run with no child
/// process (`ZipFixture` asks Python's `zipfile`). Local headers, the central directory and
/// the end record as APPNOTE describes them, without data descriptors or extra fields.
enum StoredZip {
    /// The archive of `entries` (name, bytes), in order.
    static func make(_ entries: [(name: String, bytes: Data)]) -> Data {
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
            central.append(le32: 0o100644 << 16)
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

    /// Reproducible incompressible bytes (xorshift), so a bundle is larger than a chunk.
    static func noise(count: Int, seed: UInt64) -> Data {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return Data(
            (0..<count).map { _ in
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return UInt8(truncatingIfNeeded: state)
            })
    }

    /// zip's CRC-32 (reflected, polynomial 0xEDB88320), bit by bit: test data is small.
    static func crc32(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
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
