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
        func corrupt(_ problem: Malformed) -> ZipExtractionError {
            let reason =
                switch problem {
                case .noSignature: "has no local header signature"
                case .cutShort: "is cut short"
                case .extraPastEnd: "has an extra field that runs past its end"
                }
            return .corrupt(archive: source.name, reason: "the local header at \(offset) \(reason)")
        }
        let fixedBytes = try source.bytes(at: offset, count: fixedSize, what: "a local header")
        let fixed: Fixed
        do throws(Malformed) {
            fixed = try Fixed(fixedBytes)
        } catch {
            throw corrupt(error)
        }
        let variable = try source.bytes(
            at: offset + Int64(fixedSize), count: fixed.variableLength, what: "a local header's name")
        do throws(Malformed) {
            return try ZipLocalHeader(fixed, variable: variable, at: offset)
        } catch {
            throw corrupt(error)
        }
    }

    /// What makes bytes no local header. Each reader words it in its own errors: `read` names
    /// the header's offset, `ZipRecordStream` the index's entry.
    enum Malformed: Error {
        case noSignature
        case cutShort
        case extraPastEnd
    }

    /// The header's fixed 30 bytes (APPNOTE 4.3.7), parsed in this one place: `read` takes them
    /// from an archive or a fetched record, `ZipRecordStream` from a download's bytes as they come.
    struct Fixed {
        var flags: UInt16
        var method: UInt16
        var crc32: UInt32
        var compressedSize: UInt32
        var uncompressedSize: UInt32
        var nameLength: Int
        var extraLength: Int

        /// How many bytes follow the fixed ones: the name, then the extra field.
        var variableLength: Int { nameLength + extraLength }

        /// Parses the first 30 of `bytes`.
        init(_ bytes: [UInt8]) throws(Malformed) {
            var fields = ZipFields(bytes)
            guard let signature = try? fields.u32(), signature == ZipSignature.localHeader else { throw .noSignature }
            do throws(ZipFields.Short) {
                try fields.skip(2)  // version needed: what cannot be read is refused by its method and flags
                flags = try fields.u16()
                method = try fields.u16()
                try fields.skip(4)  // DOS time and date
                crc32 = try fields.u32()
                compressedSize = try fields.u32()
                uncompressedSize = try fields.u32()
                nameLength = Int(try fields.u16())
                extraLength = Int(try fields.u16())
            } catch {
                throw .cutShort
            }
        }
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

extension ZipLocalHeader {
    /// The header at `offset` of the `fixed` fields and the `variable` bytes after them (the
    /// name, then the extra field: `fixed.variableLength` bytes). In an extension, so that the
    /// memberwise initializer stays.
    init(_ fixed: Fixed, variable: [UInt8], at offset: Int64) throws(Malformed) {
        guard variable.count == fixed.variableLength else { throw .cutShort }
        guard let extra = ZipExtraField(Array(variable.dropFirst(fixed.nameLength))) else { throw .extraPastEnd }
        let wide = extra.widened([UInt64(fixed.uncompressedSize), UInt64(fixed.compressedSize)])
        func size(_ value: UInt64?) -> Int64? { value.flatMap { $0 <= UInt64(Int64.max) ? Int64($0) : nil } }
        self.init(
            flags: fixed.flags, method: fixed.method, crc32: fixed.crc32, compressedSize: size(wide?[1]),
            uncompressedSize: size(wide?[0]), rawName: Array(variable.prefix(fixed.nameLength)), extra: extra,
            dataOffset: offset + Int64(Self.fixedSize) + Int64(variable.count))
    }
}
