import Foundation

/// Byte-level edits of a zip made by a real tool, to make the archives a hand-written reader
/// must refuse: fields of a local or central header, or of the end record, rewritten in place.
/// The offsets are found by the test's own scan for signatures, not by the code under test.
public struct ZipSurgery {
    public var bytes: [UInt8]

    public init(_ url: URL) throws { bytes = [UInt8](try Data(contentsOf: url)) }

    /// The archive `data` (one built in memory).
    public init(_ data: Data) { bytes = [UInt8](data) }

    public func write(to url: URL) throws { try Data(bytes).write(to: url) }

    /// Offsets of every occurrence of a signature (`0x04034b50` local, `0x02014b50` central,
    /// `0x06054b50` end), front to back.
    public func offsets(of signature: UInt32) -> [Int] {
        let needle = withUnsafeBytes(of: signature.littleEndian) { [UInt8]($0) }
        guard bytes.count >= 4 else { return [] }
        return (0...(bytes.count - 4)).filter { Array(bytes[$0..<$0 + 4]) == needle }
    }

    public static let local: UInt32 = 0x0403_4b50
    public static let central: UInt32 = 0x0201_4b50
    public static let end: UInt32 = 0x0605_4b50

    public func u16(at offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
    public func u32(at offset: Int) -> UInt32 { UInt32(u16(at: offset)) | UInt32(u16(at: offset + 2)) << 16 }

    public mutating func setU16(_ value: Int, at offset: Int) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8(value >> 8 & 0xFF)
    }

    public mutating func setU32(_ value: UInt32, at offset: Int) {
        setU16(Int(value & 0xFFFF), at: offset)
        setU16(Int(value >> 16), at: offset + 2)
    }

    /// Where the `index`th local header's data starts (after its name and extra field).
    public func localDataOffset(_ index: Int) -> Int {
        let header = offsets(of: Self.local)[index]
        return header + 30 + u16(at: header + 26) + u16(at: header + 28)
    }
}
