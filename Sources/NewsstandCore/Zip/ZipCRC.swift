import CZlib

/// A running CRC-32 (zip's checksum), computed by zlib.
struct ZipCRC {
    private(set) var value: UInt32 = 0

    /// Adds `bytes` to the checksum.
    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard var base = bytes.baseAddress?.assumingMemoryBound(to: Bytef.self) else { return }
        var remaining = bytes.count
        // zlib takes a 32-bit length.
        while remaining > 0 {
            let count = min(remaining, 1 << 30)
            value = UInt32(truncatingIfNeeded: crc32(uLong(value), base, uInt(count)))
            base += count
            remaining -= count
        }
    }

    /// The CRC-32 of `bytes`.
    static func of(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc = ZipCRC()
        Array(bytes).withUnsafeBytes { crc.update($0) }
        return crc.value
    }

    /// `0x1a2b3c4d`, as zip tools print a CRC.
    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
