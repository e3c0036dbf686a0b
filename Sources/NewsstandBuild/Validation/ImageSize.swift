import Foundation

/// Pixel dimensions read from PNG, JPEG and GIF headers, without decoding the image.
struct ImageSize: Equatable, CustomStringConvertible {
    var width: Int
    var height: Int

    var description: String { "\(width)×\(height)" }

    /// Why a size could not be read.
    enum Failure: Error, Equatable {
        /// The format is not one whose header we read.
        case unsupportedFormat
        /// The file cannot be opened, or its header is truncated or corrupt.
        case corrupt(String)
    }

    /// What one look at a file's first bytes tells: its format and, for images, its size.
    struct Probe {
        var signature: FileSignature
        var size: Result<ImageSize, Failure>
        /// Whether the file could be opened at all.
        var isReadable = true
    }

    /// Opens the file once and reads its format and, for PNG, GIF and JPEG, its size.
    static func probe(_ url: URL) -> Probe {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            return Probe(signature: .unknown, size: .failure(.corrupt(String(cString: strerror(errno)))), isReadable: false)
        }
        defer { close(fd) }
        var head = [UInt8](repeating: 0, count: 32)
        let count = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 32, 0) }
        head = Array(head.prefix(max(0, count)))
        let signature = FileSignature.detect(head)
        switch signature {
        case .png:
            // Signature (8), IHDR length (4), "IHDR" (4), width (4), height (4).
            guard head.count >= 24, Array(head[12..<16]) == Array("IHDR".utf8) else {
                return Probe(signature: signature, size: .failure(.corrupt("PNG has no IHDR chunk")))
            }
            return Probe(
                signature: signature, size: .success(ImageSize(width: bigEndian(head, 16, 4), height: bigEndian(head, 20, 4))))
        case .gif:
            guard head.count >= 10 else {
                return Probe(signature: signature, size: .failure(.corrupt("GIF header is truncated")))
            }
            return Probe(
                signature: signature,
                size: .success(ImageSize(width: Int(head[6]) | Int(head[7]) << 8, height: Int(head[8]) | Int(head[9]) << 8)))
        case .jpeg:
            return Probe(signature: signature, size: Result { () throws(Failure) -> ImageSize in try jpegSize(fd) })
        default:
            return Probe(signature: signature, size: .failure(.unsupportedFormat))
        }
    }

    /// Walks JPEG segments to the first start-of-frame marker (SOF0–SOF15 except DHT C4,
    /// JPG C8 and DAC CC), which holds the height and width.
    private static func jpegSize(_ fd: Int32) throws(Failure) -> ImageSize {
        var offset: off_t = 2
        func bytes(_ n: Int) throws(Failure) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: n)
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, n, offset) }
            guard count == n else { throw .corrupt("JPEG is truncated") }
            offset += off_t(n)
            return buffer
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
            offset += off_t(length - 2)
        }
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }
}
