/// One header of the central directory: what the archive says an entry is. Every value is
/// checked against the local header and the data before anything is trusted.
struct ZipCentralEntry: Sendable {
    /// The name as the header's bytes have it (compared with the local header's).
    var rawName: [UInt8]
    /// The name decoded (`ZipEntryName`).
    var name: String
    var versionMadeBy: UInt16
    var flags: UInt16
    var method: UInt16
    var crc32: UInt32
    var compressedSize: Int64
    var uncompressedSize: Int64
    var localHeaderOffset: Int64
    var externalAttributes: UInt32

    /// The Unix file mode, for an entry made on Unix or macOS that records one.
    var unixMode: UInt32? {
        let host = versionMadeBy >> 8
        let mode = externalAttributes >> 16
        return (host == 3 || host == 19) && mode != 0 ? mode : nil
    }

    /// Whether the entry is a folder: a name ending in `/`, a Unix folder mode, or MS-DOS's
    /// directory attribute.
    var isFolder: Bool {
        if rawName.last == UInt8(ascii: "/") { return true }
        if let unixMode { return unixMode & 0o170000 == 0o040000 }
        return externalAttributes & 0x10 != 0
    }

    /// General-purpose bit 0.
    var isEncrypted: Bool { flags & 1 != 0 }

    /// The longest name read, in bytes.
    static let maxNameBytes = 1024

    /// Reads the next header of the directory.
    static func read(_ reader: inout ZipDirectoryReader) throws(ZipExtractionError) -> ZipCentralEntry {
        let start = reader.offset
        let archive = reader.source.name
        func corrupt(_ reason: String) -> ZipExtractionError {
            .corrupt(archive: archive, reason: "the central header at \(start) \(reason)")
        }
        let fixed = try reader.bytes(Int(ZipEndRecord.centralHeaderFixedSize), what: "a central header")
        guard let header = try? Fixed(fixed) else { throw corrupt("is cut short") }
        guard header.signature == ZipSignature.centralHeader else { throw corrupt("has no central header signature") }
        // The directory's entries are kept until the archive is written: their names are bounded
        // (by Darwin's PATH_MAX, as `SafeRelativePath` bounds paths), so memory follows the entry
        // limit, not what the headers claim.
        guard header.nameLength <= maxNameBytes else {
            throw corrupt("has a name of \(header.nameLength) bytes (at most \(maxNameBytes))")
        }
        let rawName = try reader.bytes(header.nameLength, what: "an entry's name")
        guard let extra = ZipExtraField(try reader.bytes(header.extraLength, what: "an entry's extra field")) else {
            throw corrupt("has an extra field that runs past its end")
        }
        _ = try reader.bytes(header.commentLength, what: "an entry's comment")
        let name = ZipEntryName.decode(rawName, flags: header.flags, extra: extra)
        guard name.utf8.count <= maxNameBytes else { throw corrupt("has a Unicode name of more than \(maxNameBytes) bytes") }
        guard let wide = extra.widened([header.uncompressed, header.compressed, header.offset]) else {
            throw corrupt("of \(SafeRelativePath.quoted(name)) needs Zip64 values it does not have")
        }
        guard wide.allSatisfy({ $0 <= UInt64(Int64.max) }) else {
            throw corrupt("of \(SafeRelativePath.quoted(name)) has sizes out of range")
        }
        guard header.disk == 0 || header.disk == 0xFFFF else {
            throw corrupt("of \(SafeRelativePath.quoted(name)) is on another disk")
        }
        return ZipCentralEntry(
            rawName: rawName, name: name, versionMadeBy: header.madeBy, flags: header.flags, method: header.method,
            crc32: header.crc, compressedSize: Int64(wide[1]), uncompressedSize: Int64(wide[0]),
            localHeaderOffset: Int64(wide[2]), externalAttributes: header.external)
    }

    /// The header's fixed 46 bytes (APPNOTE 4.3.12).
    private struct Fixed {
        var signature: UInt32
        var madeBy: UInt16
        var flags: UInt16
        var method: UInt16
        var crc: UInt32
        var compressed: UInt64
        var uncompressed: UInt64
        var nameLength: Int
        var extraLength: Int
        var commentLength: Int
        var disk: UInt16
        var external: UInt32
        var offset: UInt64

        init(_ bytes: [UInt8]) throws(ZipFields.Short) {
            var fields = ZipFields(bytes)
            signature = try fields.u32()
            madeBy = try fields.u16()
            try fields.skip(2)  // version needed: what we cannot read is refused by its method and flags
            flags = try fields.u16()
            method = try fields.u16()
            try fields.skip(4)  // DOS time and date: files get the time they are unpacked at
            crc = try fields.u32()
            compressed = UInt64(try fields.u32())
            uncompressed = UInt64(try fields.u32())
            nameLength = Int(try fields.u16())
            extraLength = Int(try fields.u16())
            commentLength = Int(try fields.u16())
            disk = try fields.u16()
            try fields.skip(2)  // internal attributes
            external = try fields.u32()
            offset = UInt64(try fields.u32())
        }
    }
}
