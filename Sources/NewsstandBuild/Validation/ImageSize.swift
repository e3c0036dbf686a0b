import Foundation
import NewsstandCore
import NewsstandFormat

/// Pixel dimensions read from PNG, JPEG and GIF headers, without decoding the image.
package struct ImageSize: Equatable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    package var description: String { "\(width)×\(height)" }

    /// Why a size could not be read.
    package enum Failure: Error, Equatable {
        /// The format is not one whose header we read.
        case unsupportedFormat
        /// The file cannot be opened, or its header is truncated or corrupt.
        case corrupt(String)
    }

    /// What one look at a file's first bytes tells: its format and, for images, its size.
    package struct Probe {
        package var signature: FileSignature
        package var size: Result<ImageSize, Failure>
    }

    /// The largest side a PNG may have (its header holds 31-bit sizes).
    package static let pngMaximumSide = Int(Int32.max)

    /// Reads an open file's format and, for PNG, GIF and JPEG, its size. A size no decoder
    /// accepts (0 wide or high; a PNG side above 2³¹−1) is reported as corrupt.
    package static func probe(_ file: OpenFile) -> Probe {
        let probe = read(file.descriptor)
        guard case .success(let size) = probe.size else { return probe }
        switch probe.signature {
        case .png where size.width < 1 || size.height < 1 || size.width > pngMaximumSide || size.height > pngMaximumSide:
            return Probe(
                signature: .png,
                size: .failure(.corrupt("a PNG is 1 to 2,147,483,647 pixels wide and high; its header says \(size)")))
        case .gif, .jpeg:
            guard size.width < 1 || size.height < 1 else { return probe }
            return Probe(
                signature: probe.signature,
                size: .failure(.corrupt("a \(probe.signature.rawValue) of \(size) pixels shows nothing")))
        default:
            return probe
        }
    }

    private static func read(_ fd: Int32) -> Probe {
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
