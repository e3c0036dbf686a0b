/// The zip records libarchive writes that `ZipOutput` rewrites, read and patched in place
/// (APPNOTE 6.3.10: 4.3.7 local file header, 4.3.9 data descriptor, 4.3.12 central directory
/// header, 4.3.14–4.3.16 Zip64 end records and end of central directory, 4.5.3 Zip64 extra
/// field). Every length and offset is checked before it is used: a record that is not what
/// libarchive 3.6 writes is refused, never patched at a guessed position.
enum ZipRecords {
    static let localHeaderSignature: UInt32 = 0x0403_4b50
    static let descriptorSignature: UInt32 = 0x0807_4b50
    static let centralHeaderSignature: UInt32 = 0x0201_4b50
    static let zip64EndSignature: UInt32 = 0x0606_4b50
    static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    static let endSignature: UInt32 = 0x0605_4b50
    /// General-purpose flag bit 3: CRC-32 and sizes follow the data in a data descriptor.
    static let sizesAfterDataFlag: UInt16 = 1 << 3
    static let zip64ExtraID: UInt16 = 0x0001
    static let marker32: UInt32 = 0xffff_ffff

    /// A data descriptor as libarchive writes it (with signature; 64-bit sizes for Zip64).
    struct Descriptor: Equatable {
        var crc32: UInt32
        var compressedSize: UInt64
        var uncompressedSize: UInt64
    }

    /// Whether one write from libarchive can be an entry's data descriptor (it is written
    /// whole, in one call, as the last output of `archive_write_finish_entry`).
    static func mayBeDescriptor(_ chunk: UnsafeRawBufferPointer) -> Bool {
        (chunk.count == 16 || chunk.count == 24) && chunk.loadUnaligned(as: UInt32.self).littleEndian == descriptorSignature
    }

    static func descriptor(_ bytes: [UInt8], zip64: Bool) throws(RecordError) -> Descriptor {
        guard bytes.count == (zip64 ? 24 : 16), bytes.le32(0) == descriptorSignature else {
            throw RecordError("the data descriptor is not the expected \(zip64 ? 24 : 16) bytes")
        }
        return zip64
            ? Descriptor(crc32: bytes.le32(4), compressedSize: bytes.le64(8), uncompressedSize: bytes.le64(16))
            : Descriptor(crc32: bytes.le32(4), compressedSize: UInt64(bytes.le32(8)), uncompressedSize: UInt64(bytes.le32(12)))
    }

    /// A local file header as libarchive wrote it, with bit 3 set and zeros for the CRC-32 and
    /// sizes; `usesZip64` when the sizes live in a Zip64 extra field (then the descriptor is 24
    /// bytes).
    struct LocalHeader {
        var bytes: [UInt8]
        /// Where the Zip64 extra field's 8-byte uncompressed size starts (the compressed size
        /// follows it), when the header has one.
        let zip64SizesAt: Int?
        var usesZip64: Bool { zip64SizesAt != nil }

        init(_ bytes: [UInt8]) throws(RecordError) {
            guard bytes.count >= 30, bytes.le32(0) == localHeaderSignature else {
                throw RecordError("the local file header does not start with its signature")
            }
            let nameLength = Int(bytes.le16(26))
            let extraLength = Int(bytes.le16(28))
            guard bytes.count == 30 + nameLength + extraLength else {
                throw RecordError(
                    "the local file header is \(bytes.count) bytes, its fields say \(30 + nameLength + extraLength)")
            }
            guard bytes.le16(6) & sizesAfterDataFlag != 0 else {
                throw RecordError("the local file header does not announce a data descriptor")
            }
            if bytes.le32(18) == marker32 && bytes.le32(22) == marker32 {
                let extra = 30 + nameLength
                guard let field = ZipRecords.field(zip64ExtraID, in: bytes, from: extra, to: extra + extraLength),
                    field.length >= 16
                else { throw RecordError("a Zip64 local file header has no Zip64 sizes") }
                zip64SizesAt = field.start
            } else {
                zip64SizesAt = nil
            }
            self.bytes = bytes
        }

        /// Drops the header's extra fields. Refused for a Zip64 header, whose sizes live in one.
        mutating func removeExtraFields() throws(RecordError) {
            guard !usesZip64 else { throw RecordError("a Zip64 local file header cannot lose its extra fields") }
            bytes = Array(bytes[..<(30 + Int(bytes.le16(26)))])
            bytes.setLE16(0, at: 28)
        }

        /// Writes what the descriptor says into the header, clears bit 3 and sets the time.
        mutating func complete(with descriptor: Descriptor, time: DOSDateTime) throws(RecordError) {
            bytes.setLE16(bytes.le16(6) & ~sizesAfterDataFlag, at: 6)
            bytes.setLE16(time.time, at: 10)
            bytes.setLE16(time.date, at: 12)
            bytes.setLE32(descriptor.crc32, at: 14)
            if let sizes = zip64SizesAt {
                bytes.setLE64(descriptor.uncompressedSize, at: sizes)
                bytes.setLE64(descriptor.compressedSize, at: sizes + 8)
            } else {
                guard descriptor.compressedSize < UInt64(marker32), descriptor.uncompressedSize < UInt64(marker32) else {
                    throw RecordError("an entry of 4 GiB or more has no Zip64 extra field")
                }
                bytes.setLE32(UInt32(descriptor.compressedSize), at: 18)
                bytes.setLE32(UInt32(descriptor.uncompressedSize), at: 22)
            }
        }
    }

    /// Where an entry's local header ended up: libarchive's offset for it (which counts the
    /// data descriptors before it), the offset in the file, its time and its CRC-32.
    struct EntryPlacement {
        var producedOffset: Int64
        var fileOffset: Int64
        var time: DOSDateTime
        var crc32: UInt32
    }

    /// Rewrites libarchive's central directory and end records for the file as written: for
    /// each entry, bit 3 cleared, the UTC time, its CRC-32 (libarchive's is 0 under
    /// `zip:fakecrc32`; one it computed must be the same), and its local header's offset in the file (in
    /// the header, or in its Zip64 extra field); the directory's offset in the end record and,
    /// if present, the Zip64 end record and its locator. Every count, size and offset
    /// libarchive wrote is checked against what was seen go by.
    static func rewriteTrailer(
        _ bytes: inout [UInt8], entries: [EntryPlacement], producedOffset: Int64, fileOffset: Int64
    ) throws(RecordError) {
        var byOffset: [Int64: EntryPlacement] = [:]
        for entry in entries { byOffset[entry.producedOffset] = entry }
        var cursor = 0
        var count = 0
        while cursor + 4 <= bytes.count, bytes.le32(cursor) == centralHeaderSignature {
            guard cursor + 46 <= bytes.count else { throw RecordError("a central directory header is cut short") }
            let nameLength = Int(bytes.le16(cursor + 28))
            let extraLength = Int(bytes.le16(cursor + 30))
            let commentLength = Int(bytes.le16(cursor + 32))
            let extra = cursor + 46 + nameLength
            let end = extra + extraLength + commentLength
            guard end <= bytes.count else { throw RecordError("a central directory header is cut short") }
            // The offset is in the header, or, when the header holds 0xffffffff, in the Zip64
            // extra field after the sizes that are there too (APPNOTE 4.5.3).
            var offsetAt: Int?
            if bytes.le32(cursor + 42) == marker32,
                let field = ZipRecords.field(zip64ExtraID, in: bytes, from: extra, to: extra + extraLength)
            {
                var at = field.start
                if bytes.le32(cursor + 24) == marker32 { at += 8 }
                if bytes.le32(cursor + 20) == marker32 { at += 8 }
                guard at + 8 <= field.start + field.length else { throw RecordError("a Zip64 extra field has no offset") }
                offsetAt = at
            }
            let produced = offsetAt.map { Int64(bitPattern: bytes.le64($0)) } ?? Int64(bytes.le32(cursor + 42))
            guard let entry = byOffset[produced] else {
                throw RecordError("the central directory names a local header at \(produced) that was never written")
            }
            guard bytes.le32(cursor + 16) == 0 || bytes.le32(cursor + 16) == entry.crc32 else {
                throw RecordError("the central directory's CRC-32 of an entry is not its bytes'")
            }
            bytes.setLE32(entry.crc32, at: cursor + 16)
            bytes.setLE16(bytes.le16(cursor + 8) & ~sizesAfterDataFlag, at: cursor + 8)
            bytes.setLE16(entry.time.time, at: cursor + 12)
            bytes.setLE16(entry.time.date, at: cursor + 14)
            if let offsetAt {
                bytes.setLE64(UInt64(entry.fileOffset), at: offsetAt)
            } else {
                bytes.setLE32(UInt32(entry.fileOffset), at: cursor + 42)  // smaller than the 32-bit value it replaces
            }
            count += 1
            cursor = end
        }
        guard count == entries.count else {
            throw RecordError("the central directory lists \(count) entries, \(entries.count) were written")
        }
        let directorySize = Int64(cursor)
        if cursor + 4 <= bytes.count, bytes.le32(cursor) == zip64EndSignature {
            guard cursor + 56 + 20 <= bytes.count, bytes.le64(cursor + 4) >= 44 else {
                throw RecordError("the Zip64 end of central directory record is cut short")
            }
            let recordEnd = cursor + 12 + Int(clamping: bytes.le64(cursor + 4))
            guard recordEnd + 20 <= bytes.count, bytes.le64(cursor + 24) == UInt64(count),
                bytes.le64(cursor + 32) == UInt64(count), bytes.le64(cursor + 40) == UInt64(directorySize),
                bytes.le64(cursor + 48) == UInt64(producedOffset)
            else { throw RecordError("the Zip64 end of central directory record does not match the directory") }
            bytes.setLE64(UInt64(fileOffset), at: cursor + 48)
            let locator = recordEnd
            guard bytes.le32(locator) == zip64LocatorSignature,
                bytes.le64(locator + 8) == UInt64(producedOffset + directorySize)
            else { throw RecordError("the Zip64 end of central directory locator does not match the directory") }
            bytes.setLE64(UInt64(fileOffset + directorySize), at: locator + 8)
            cursor = locator + 20
        }
        guard cursor + 22 <= bytes.count, bytes.le32(cursor) == endSignature,
            cursor + 22 + Int(bytes.le16(cursor + 20)) == bytes.count
        else { throw RecordError("the end of central directory record is missing or followed by other bytes") }
        guard bytes.le16(cursor + 8) == UInt16(min(count, 0xffff)), bytes.le16(cursor + 10) == UInt16(min(count, 0xffff)),
            bytes.le32(cursor + 12) == UInt32(min(directorySize, Int64(marker32)))
        else { throw RecordError("the end of central directory record does not match the directory") }
        // 0xffffffff sends readers to the Zip64 record, which holds the offset; it stays so.
        if bytes.le32(cursor + 16) != marker32 {
            guard Int64(bytes.le32(cursor + 16)) == producedOffset else {
                throw RecordError("the end of central directory record does not match the directory")
            }
            bytes.setLE32(UInt32(fileOffset), at: cursor + 16)
        }
    }

    /// The extra field with `id` between `start` and `end` (where its data starts and its
    /// length), walking the fields' own lengths.
    static func field(_ id: UInt16, in bytes: [UInt8], from start: Int, to end: Int) -> (start: Int, length: Int)? {
        var at = start
        while at + 4 <= end {
            let length = Int(bytes.le16(at + 2))
            guard at + 4 + length <= end else { return nil }
            if bytes.le16(at) == id { return (at + 4, length) }
            at += 4 + length
        }
        return nil
    }
}

/// A zip record that is not what libarchive was expected to write.
struct RecordError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

extension [UInt8] {
    func le16(_ at: Int) -> UInt16 { UInt16(self[at]) | UInt16(self[at + 1]) << 8 }
    func le32(_ at: Int) -> UInt32 { UInt32(le16(at)) | UInt32(le16(at + 2)) << 16 }
    func le64(_ at: Int) -> UInt64 { UInt64(le32(at)) | UInt64(le32(at + 4)) << 32 }

    mutating func setLE16(_ value: UInt16, at: Int) {
        self[at] = UInt8(truncatingIfNeeded: value)
        self[at + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }

    mutating func setLE32(_ value: UInt32, at: Int) {
        setLE16(UInt16(truncatingIfNeeded: value), at: at)
        setLE16(UInt16(truncatingIfNeeded: value >> 16), at: at + 2)
    }

    mutating func setLE64(_ value: UInt64, at: Int) {
        setLE32(UInt32(truncatingIfNeeded: value), at: at)
        setLE32(UInt32(truncatingIfNeeded: value >> 32), at: at + 4)
    }
}
