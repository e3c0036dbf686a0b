import Foundation

/// Pixel dimensions read from PNG, JPEG and GIF headers, without decoding the image.
struct ImageSize: Equatable, CustomStringConvertible {
    var width: Int
    var height: Int

    var description: String { "\(width)×\(height)" }

    /// Why a size could not be read.
    enum Failure: Error {
        /// The format is not one whose header we read.
        case unsupportedFormat
        /// The header is truncated or corrupt.
        case corrupt(String)
    }

    /// Reads the size of the image at `url` (only the header is read).
    static func read(_ url: URL) throws(Failure) -> ImageSize {
        guard let handle = try? FileHandle(forReadingFrom: url) else { throw .corrupt("cannot be opened") }
        defer { try? handle.close() }
        let head = Array((try? handle.read(upToCount: 32)) ?? Data())
        switch FileSignature.detect(head) {
        case .png:
            // Signature (8), IHDR length (4), "IHDR" (4), width (4), height (4).
            guard head.count >= 24, Array(head[12..<16]) == Array("IHDR".utf8) else { throw .corrupt("PNG has no IHDR chunk") }
            return ImageSize(width: Self.bigEndian(head, 16, 4), height: Self.bigEndian(head, 20, 4))
        case .gif:
            guard head.count >= 10 else { throw .corrupt("GIF header is truncated") }
            return ImageSize(width: Int(head[6]) | Int(head[7]) << 8, height: Int(head[8]) | Int(head[9]) << 8)
        case .jpeg:
            try? handle.seek(toOffset: 2)
            return try jpegSize(handle)
        default:
            throw .unsupportedFormat
        }
    }

    /// Walks JPEG segments to the first start-of-frame marker (SOF0–SOF15 except DHT C4,
    /// JPG C8 and DAC CC), which holds the height and width.
    private static func jpegSize(_ handle: FileHandle) throws(Failure) -> ImageSize {
        func bytes(_ n: Int) throws(Failure) -> [UInt8] {
            guard let data = try? handle.read(upToCount: n), data.count == n else { throw .corrupt("JPEG is truncated") }
            return Array(data)
        }
        while true {
            var marker = try bytes(1)[0]
            guard marker == 0xFF else { throw .corrupt("JPEG segment marker expected") }
            while marker == 0xFF { marker = try bytes(1)[0] }  // fill bytes
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }  // no length
            if marker == 0xD9 || marker == 0xDA { throw .corrupt("JPEG has no frame header before its image data") }
            let length = bigEndian(try bytes(2), 0, 2)
            guard length >= 2 else { throw .corrupt("JPEG segment length is invalid") }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                let frame = try bytes(5)
                return ImageSize(width: bigEndian(frame, 3, 2), height: bigEndian(frame, 1, 2))
            }
            _ = try bytes(length - 2)
        }
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }
}
