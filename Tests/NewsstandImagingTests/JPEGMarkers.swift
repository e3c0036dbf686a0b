import Foundation

/// Writes JPEG marker segments into test files by hand.
enum JPEGMarkers {
    /// Copies a JPEG, inserting an APP1 EXIF segment with only an orientation tag after SOI.
    static func insertEXIFOrientation(_ orientation: UInt8, from source: URL, to destination: URL) throws {
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08,  // big-endian TIFF, first IFD at 8
            0x00, 0x01,  // one entry
            0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, orientation, 0x00, 0x00,  // Orientation, SHORT
            0x00, 0x00, 0x00, 0x00,  // no next IFD
        ]
        try insert(marker: 0xE1, payload: Array("Exif".utf8) + [0, 0] + tiff, from: source, to: destination)
    }

    /// Copies a JPEG, inserting a COM segment after SOI.
    static func insertComment(_ text: String, from source: URL, to destination: URL) throws {
        try insert(marker: 0xFE, payload: Array(text.utf8), from: source, to: destination)
    }

    static func insert(marker: UInt8, payload: [UInt8], from source: URL, to destination: URL) throws {
        let bytes = [UInt8](try Data(contentsOf: source))
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        try Data(Array(bytes[0..<2]) + segment + Array(bytes[2...])).write(to: destination)
    }
}
