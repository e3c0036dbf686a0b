/// Where the central directory is and how many entries it holds, from the end of central
/// directory record (and Zip64's locator and record when the archive needs 64-bit values).
///
/// The record is found by scanning back from the end of the file, as every zip reader must
/// (it ends with a comment of up to 64 KiB). A candidate is taken only if its comment ends
/// exactly at the end of the file and its central directory ends exactly where the end records
/// begin: so a comment that holds the signature, or a truncated archive, is not misread.
struct ZipEndRecord: Equatable {
    /// Entries the central directory holds.
    var entryCount: Int64
    /// Offset of the central directory's first header.
    var directoryOffset: Int64
    /// Size of the central directory in bytes.
    var directorySize: Int64

    /// The fixed part of the end record; a comment of up to 65,535 bytes follows.
    static let fixedSize = 22
    static let locatorSize = 20
    static let zip64FixedSize = 56
    /// A central header's fixed part: no directory can hold more entries than this many fit.
    static let centralHeaderFixedSize: Int64 = 46

    /// Reads the end records of `source`.
    static func read(_ source: ZipSource) throws(ZipExtractionError) -> ZipEndRecord {
        let tailCount = Int(min(source.size, Int64(fixedSize + 0xFFFF + locatorSize)))
        let tail = try source.bytes(at: source.size - Int64(tailCount), count: tailCount, what: "the end of the archive")
        let tailStart = source.size - Int64(tailCount)
        var problem: String?
        var position = tailCount - fixedSize
        while position >= 0 {
            defer { position -= 1 }
            guard signature(in: tail, at: position) == ZipSignature.endOfCentralDirectory else { continue }
            do {
                return try candidate(in: source, tail: tail, at: position, tailStart: tailStart)
            } catch let ZipExtractionError.corrupt(_, reason) {
                problem = problem ?? reason
            }
        }
        if let problem { throw .corrupt(archive: source.name, reason: problem) }
        let start = try source.bytes(at: 0, count: Int(min(4, source.size)), what: "the first record")
        if start == [0x50, 0x4B, 0x03, 0x04] {
            throw .corrupt(archive: source.name, reason: "no end of central directory record (the archive is cut short)")
        }
        throw .cannotOpen(archive: source.name, reason: "not a zip archive (no end of central directory record)")
    }

    private static func signature(in bytes: [UInt8], at offset: Int) -> UInt32? {
        var fields = ZipFields(bytes, at: offset)
        return try? fields.u32()
    }

    /// The end record whose signature is at `position` in `tail`, checked.
    private static func candidate(in source: ZipSource, tail: [UInt8], at position: Int, tailStart: Int64)
        throws(ZipExtractionError) -> ZipEndRecord
    {
        func corrupt(_ reason: String) -> ZipExtractionError { .corrupt(archive: source.name, reason: reason) }
        var fields = ZipFields(tail, at: position + 4)
        let offset = tailStart + Int64(position)
        guard let disk = try? fields.u16(), let directoryDisk = try? fields.u16(), let diskEntries = try? fields.u16(),
            let entries = try? fields.u16(), let size = try? fields.u32(), let start = try? fields.u32(),
            let commentLength = try? fields.u16()
        else { throw corrupt("the end of central directory record is cut short") }
        guard fields.remaining == Int(commentLength) else {
            throw corrupt("the end of central directory record's comment does not end with the archive")
        }
        var record = ZipEndRecord(entryCount: Int64(entries), directoryOffset: Int64(start), directorySize: Int64(size))
        var directoryEnd = offset
        var multiDisk = disk != 0 || directoryDisk != 0 || diskEntries != entries
        if position >= locatorSize, signature(in: tail, at: position - locatorSize) == ZipSignature.zip64Locator {
            var locator = ZipFields(tail, at: position - locatorSize + 4)
            guard let recordDisk = try? locator.u32(), let recordOffset = try? locator.u64(), let disks = try? locator.u32()
            else {
                throw corrupt("the Zip64 locator is cut short")
            }
            guard recordOffset <= UInt64(offset - Int64(locatorSize) - Int64(zip64FixedSize)) else {
                throw corrupt("the Zip64 end record at \(recordOffset) is not before its locator")
            }
            let zip64 = try source.bytes(at: Int64(recordOffset), count: zip64FixedSize, what: "the Zip64 end record")
            var z = ZipFields(zip64)
            guard (try? z.u32()) == ZipSignature.zip64End, let recordSize = try? z.u64(), recordSize >= 44,
                (try? z.skip(4)) != nil, let zDisk = try? z.u32(), let zDirectoryDisk = try? z.u32(),
                let zDiskEntries = try? z.u64(), let zEntries = try? z.u64(), let zSize = try? z.u64(), let zStart = try? z.u64()
            else { throw corrupt("the Zip64 end record at \(recordOffset) is malformed") }
            guard recordOffset + 12 + recordSize == UInt64(offset - Int64(locatorSize)) else {
                throw corrupt("the Zip64 end record's size does not reach its locator")
            }
            multiDisk = zDisk != 0 || zDirectoryDisk != 0 || zDiskEntries != zEntries || recordDisk != 0 || disks > 1
            guard zEntries <= UInt64(Int64.max), zSize <= UInt64(Int64.max), zStart <= UInt64(Int64.max) else {
                throw corrupt("the Zip64 end record's values are out of range")
            }
            record = ZipEndRecord(entryCount: Int64(zEntries), directoryOffset: Int64(zStart), directorySize: Int64(zSize))
            directoryEnd = Int64(recordOffset)
        } else if entries == 0xFFFF || size == 0xFFFF_FFFF || start == 0xFFFF_FFFF {
            throw corrupt("the end record needs a Zip64 record, and the archive has none")
        }
        guard !multiDisk else { throw corrupt("the archive spans several disks") }
        guard record.directoryOffset <= directoryEnd, record.directorySize == directoryEnd - record.directoryOffset else {
            throw corrupt(
                "the central directory (\(record.directorySize) bytes at \(record.directoryOffset)) does not end where the end records begin (\(directoryEnd))"
            )
        }
        guard record.entryCount <= record.directorySize / centralHeaderFixedSize else {
            throw corrupt(
                "the end record claims \(record.entryCount) entries, more than \(record.directorySize) bytes of central directory can hold"
            )
        }
        return record
    }
}
