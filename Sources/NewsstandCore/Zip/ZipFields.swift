/// A zip record's little-endian fields, read front to back from bytes already in memory; every
/// read is bounds-checked, so a record shorter than its fields claim is refused, never read past.
struct ZipFields {
    /// What a record is missing: the caller names the archive and the record.
    struct Short: Error {}

    private let bytes: [UInt8]
    /// The offset of the next field.
    private(set) var at: Int

    init(_ bytes: [UInt8], at start: Int = 0) {
        self.bytes = bytes
        at = start
    }

    /// Bytes not yet read.
    var remaining: Int { bytes.count - at }

    mutating func u8() throws(Short) -> UInt8 {
        guard remaining >= 1 else { throw Short() }
        defer { at += 1 }
        return bytes[at]
    }

    mutating func u16() throws(Short) -> UInt16 {
        guard remaining >= 2 else { throw Short() }
        defer { at += 2 }
        return UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
    }

    mutating func u32() throws(Short) -> UInt32 {
        let low = try u16()
        return UInt32(low) | UInt32(try u16()) << 16
    }

    mutating func u64() throws(Short) -> UInt64 {
        let low = try u32()
        return UInt64(low) | UInt64(try u32()) << 32
    }

    /// The next `count` bytes.
    mutating func take(_ count: Int) throws(Short) -> [UInt8] {
        guard count >= 0, remaining >= count else { throw Short() }
        defer { at += count }
        return Array(bytes[at..<at + count])
    }

    mutating func skip(_ count: Int) throws(Short) {
        guard count >= 0, remaining >= count else { throw Short() }
        at += count
    }
}
