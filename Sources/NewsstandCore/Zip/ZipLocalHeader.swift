/// A local file header (APPNOTE 4.3.7): what precedes an entry's data. A hand-written reader
/// must not trust it over the central directory nor the other way round: `check(against:)`
/// refuses a local header whose name, method, flags or sizes disagree with the central one.
struct ZipLocalHeader {
    var flags: UInt16
    var method: UInt16
    var crc32: UInt32
    /// The sizes as the header states them (Zip64's where saturated); nil when saturated
    /// without a Zip64 field, as a writer with a data descriptor may leave them.
    var compressedSize: Int64?
    var uncompressedSize: Int64?
    var rawName: [UInt8]
    var extra: ZipExtraField
    /// Where the entry's data starts.
    var dataOffset: Int64

    static let fixedSize = 30
    /// General-purpose bit 3: CRC and sizes follow the data in a descriptor.
    static let descriptorFlag: UInt16 = 1 << 3

    var hasDataDescriptor: Bool { flags & Self.descriptorFlag != 0 }

    /// Reads the local header at `offset`.
    static func read(_ source: ZipSource, at offset: Int64) throws(ZipExtractionError) -> ZipLocalHeader {
        func corrupt(_ reason: String) -> ZipExtractionError {
            .corrupt(archive: source.name, reason: "the local header at \(offset) \(reason)")
        }
        var fields = ZipFields(try source.bytes(at: offset, count: fixedSize, what: "a local header"))
        guard let signature = try? fields.u32(), signature == ZipSignature.localHeader else {
            throw corrupt("has no local header signature")
        }
        guard (try? fields.skip(2)) != nil, let flags = try? fields.u16(), let method = try? fields.u16(),
            (try? fields.skip(4)) != nil, let crc = try? fields.u32(), let compressed = try? fields.u32(),
            let uncompressed = try? fields.u32(), let nameLength = try? fields.u16(), let extraLength = try? fields.u16()
        else { throw corrupt("is cut short") }
        let variable = try source.bytes(
            at: offset + Int64(fixedSize), count: Int(nameLength) + Int(extraLength), what: "a local header's name")
        let rawName = Array(variable.prefix(Int(nameLength)))
        guard let extra = ZipExtraField(Array(variable.dropFirst(Int(nameLength)))) else {
            throw corrupt("has an extra field that runs past its end")
        }
        let wide = extra.widened([UInt64(uncompressed), UInt64(compressed)])
        func size(_ value: UInt64?) -> Int64? { value.flatMap { $0 <= UInt64(Int64.max) ? Int64($0) : nil } }
        return ZipLocalHeader(
            flags: flags, method: method, crc32: crc, compressedSize: size(wide?[1]), uncompressedSize: size(wide?[0]),
            rawName: rawName, extra: extra, dataOffset: offset + Int64(fixedSize) + Int64(variable.count))
    }

    /// Refuses a local header that describes another entry than the central one does. With a
    /// data descriptor the local CRC and sizes may be zero (they follow the data).
    func check(against central: ZipCentralEntry, archive: String) throws(ZipExtractionError) {
        func disagree(_ what: String) -> ZipExtractionError {
            .corrupt(
                archive: archive,
                reason:
                    "the local header of \(SafeRelativePath.quoted(central.name)) has another \(what) than the central directory")
        }
        guard rawName == central.rawName else { throw disagree("name") }
        guard method == central.method else { throw disagree("compression method") }
        guard flags & 1 == central.flags & 1, hasDataDescriptor == (central.flags & Self.descriptorFlag != 0) else {
            throw disagree("set of flags")
        }
        func same<T: Equatable & BinaryInteger>(_ local: T?, _ central: T) -> Bool {
            local == central || (hasDataDescriptor && (local == nil || local == 0))
        }
        guard same(crc32, central.crc32) else { throw disagree("CRC-32") }
        guard same(compressedSize, central.compressedSize), same(uncompressedSize, central.uncompressedSize) else {
            throw disagree("size")
        }
    }
}
