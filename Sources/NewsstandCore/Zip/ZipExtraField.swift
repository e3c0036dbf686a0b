/// The extra fields of a central or local header that the reader uses: Zip64's 64-bit sizes and
/// offset (0x0001) and Info-ZIP's Unicode path (0x7075). Other fields are skipped; a field that
/// runs past the end of the area is refused, while a few bytes of padding after the last field
/// (Android's zipalign writes them) are not.
struct ZipExtraField {
    /// The data of the Zip64 field, if present.
    var zip64: [UInt8]?
    /// The Unicode path field: the CRC-32 of the header's raw name it was made for, and the name.
    var unicodePath: (nameCRC: UInt32, name: [UInt8])?

    static let zip64ID: UInt16 = 0x0001
    static let unicodePathID: UInt16 = 0x7075

    /// Parses an extra area; nil when a field runs past its end.
    init?(_ bytes: [UInt8]) {
        var fields = ZipFields(bytes)
        while fields.remaining >= 4 {
            guard let id = try? fields.u16(), let size = try? fields.u16(), let data = try? fields.take(Int(size)) else {
                return nil
            }
            switch id {
            case Self.zip64ID where zip64 == nil: zip64 = data
            case Self.unicodePathID where unicodePath == nil:
                // Version 1, then the CRC-32 of the header's name, then the UTF-8 name.
                var path = ZipFields(data)
                if let version = try? path.u8(), version == 1, let crc = try? path.u32() {
                    unicodePath = (crc, (try? path.take(path.remaining)) ?? [])
                }
            default: continue
            }
        }
    }

    /// `values` (a header's uncompressed size, compressed size and, in the central directory,
    /// local header offset) with each saturated one (0xFFFFFFFF) replaced by Zip64's, which holds
    /// only those, in that order (APPNOTE 4.5.3); nil when one is needed and missing.
    func widened(_ values: [UInt64]) -> [UInt64]? {
        var result = values
        var fields = ZipFields(zip64 ?? [])
        for (i, value) in values.enumerated() where value == 0xFFFF_FFFF {
            guard zip64 != nil, let wide = try? fields.u64() else { return nil }
            result[i] = wide
        }
        return result
    }
}
