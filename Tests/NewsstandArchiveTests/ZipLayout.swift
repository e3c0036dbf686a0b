import Foundation

/// A zip file's records, read by the tests themselves (not by libarchive or our own code) the
/// way a streaming reader meets them: local headers front to back, each followed by exactly
/// the compressed size its header announces, then the central directory and end records.
struct ZipLayout {
    struct Local {
        var offset: Int
        var flags: UInt16
        var method: UInt16
        var time: UInt16
        var date: UInt16
        var crc32: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var hasZip64Sizes: Bool
        var name: String
        var dataOffset: Int
    }

    struct Central {
        var flags: UInt16
        var method: UInt16
        var time: UInt16
        var date: UInt16
        var crc32: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
        var localOffset: UInt64
        var name: String
    }

    var locals: [Local] = []
    var centrals: [Central] = []
    /// Where the first byte after the last entry's data is (the central directory must start there).
    var endOfEntries = 0
    var directoryOffset: UInt64 = 0
    var directorySize: UInt64 = 0
    var hasZip64End = false

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        func u16(_ at: Int) throws -> UInt16 {
            guard at >= 0, at + 2 <= bytes.count else { throw Malformed(description: "read past the end at \(at)") }
            return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
        }
        func u32(_ at: Int) throws -> UInt32 { UInt32(try u16(at)) | UInt32(try u16(at + 2)) << 16 }
        func u64(_ at: Int) throws -> UInt64 { UInt64(try u32(at)) | UInt64(try u32(at + 4)) << 32 }
        func name(_ at: Int, _ count: Int) throws -> String {
            guard at + count <= bytes.count else { throw Malformed(description: "a name runs past the end") }
            return String(decoding: bytes[at..<at + count], as: UTF8.self)
        }
        /// The Zip64 extra field's data (offset, length) between `start` and `end`.
        func zip64(_ start: Int, _ end: Int) throws -> (Int, Int)? {
            var at = start
            while at + 4 <= end {
                let length = Int(try u16(at + 2))
                if try u16(at) == 1 { return (at + 4, length) }
                at += 4 + length
            }
            return nil
        }

        var at = 0
        while try u32(at) == 0x0403_4b50 {
            let nameLength = Int(try u16(at + 26))
            let extraLength = Int(try u16(at + 28))
            var compressed = UInt64(try u32(at + 18))
            var uncompressed = UInt64(try u32(at + 22))
            var hasZip64 = false
            if compressed == 0xffff_ffff || uncompressed == 0xffff_ffff {
                guard let (field, length) = try zip64(at + 30 + nameLength, at + 30 + nameLength + extraLength), length >= 16
                else { throw Malformed(description: "a Zip64 local header at \(at) has no Zip64 sizes") }
                uncompressed = try u64(field)
                compressed = try u64(field + 8)
                hasZip64 = true
            }
            let local = Local(
                offset: at, flags: try u16(at + 6), method: try u16(at + 8), time: try u16(at + 10), date: try u16(at + 12),
                crc32: try u32(at + 14), compressedSize: compressed, uncompressedSize: uncompressed, hasZip64Sizes: hasZip64,
                name: try name(at + 30, nameLength), dataOffset: at + 30 + nameLength + extraLength)
            guard local.flags & 8 == 0 else {
                throw Malformed(
                    description: "\(local.name): its sizes follow its data (flag bit 3); a streaming reader cannot skip it")
            }
            locals.append(local)
            at = local.dataOffset + Int(compressed)
        }
        endOfEntries = at

        // The end records, found from the end (no archive comment is written).
        let end = bytes.count - 22
        guard end >= 0, try u32(end) == 0x0605_4b50 else { throw Malformed(description: "no end of central directory record") }
        directoryOffset = UInt64(try u32(end + 16))
        directorySize = UInt64(try u32(end + 12))
        var count = Int(try u16(end + 10))
        if end >= 20, try u32(end - 20) == 0x0706_4b50 {
            let record = Int(try u64(end - 20 + 8))
            guard try u32(record) == 0x0606_4b50 else { throw Malformed(description: "the Zip64 locator points at no record") }
            hasZip64End = true
            count = Int(try u64(record + 32))
            directorySize = try u64(record + 40)
            directoryOffset = try u64(record + 48)
        }
        var entry = Int(directoryOffset)
        for _ in 0..<count {
            guard try u32(entry) == 0x0201_4b50 else { throw Malformed(description: "no central directory header at \(entry)") }
            let nameLength = Int(try u16(entry + 28))
            let extraLength = Int(try u16(entry + 30))
            let commentLength = Int(try u16(entry + 32))
            var compressed = UInt64(try u32(entry + 20))
            var uncompressed = UInt64(try u32(entry + 24))
            var offset = UInt64(try u32(entry + 42))
            let extra = entry + 46 + nameLength
            if let (field, length) = try zip64(extra, extra + extraLength) {
                var next = field
                if uncompressed == 0xffff_ffff {
                    uncompressed = try u64(next)
                    next += 8
                }
                if compressed == 0xffff_ffff {
                    compressed = try u64(next)
                    next += 8
                }
                if offset == 0xffff_ffff {
                    offset = try u64(next)
                    next += 8
                }
                guard next <= field + length else { throw Malformed(description: "a Zip64 extra field is too short") }
            }
            centrals.append(
                Central(
                    flags: try u16(entry + 8), method: try u16(entry + 10), time: try u16(entry + 12), date: try u16(entry + 14),
                    crc32: try u32(entry + 16),
                    compressedSize: compressed, uncompressedSize: uncompressed, localOffset: offset,
                    name: try name(entry + 46, nameLength)))
            entry = extra + extraLength + commentLength
        }
        guard UInt64(entry) == directoryOffset + directorySize else {
            throw Malformed(
                description: "the central directory ends at \(entry), its records say \(directoryOffset + directorySize)")
        }
    }
}
