import CZlib
import Foundation

struct PNGWriteFailed: Error { let message: String }

/// Real PNGs for the build's imaging, deflated by zlib (the system's libz, as Python's
/// `zlib.compress(…, 1)` calls it: the same bytes), not by the engine under test (libvips).
enum RealPNG {
    /// An 8-bit RGB PNG of a pattern, its pixel data deflated at level 1, with `metadata` bytes
    /// of `tEXt` (what an editor leaves behind) before the pixels.
    static func data(width: Int, height: Int, metadata: Int = 0, seed: Int = 0) throws -> Data {
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + 3 * width))
        for y in 0..<height {
            raw.append(0)  // no filter
            for x in 0..<width {
                let red = UInt8((x * 5 + seed) & 255)
                let green = UInt8((y * 3) & 255)
                let blue = UInt8(((x / 8 + y / 8) % 2) * 200)
                raw += [red, green, blue]
            }
        }
        var header: [UInt8] = []
        for value in [width, height] { header += bigEndian(UInt32(value)) }
        header += [8, 2, 0, 0, 0]  // 8 bits, RGB, deflate, adaptive filtering, no interlace
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        if metadata > 0 {
            var text: [UInt8] = []
            for index in 0..<metadata {
                let printable: Int = (index * 7 + 13) % 94 + 32
                text.append(UInt8(printable))
            }
            out += chunk("tEXt", Array("Comment".utf8) + [0] + text)
        }
        out += chunk("IDAT", try deflate(raw, level: 1)) + chunk("IEND", [])
        return Data(out)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// Length, type, data and the CRC-32 (zlib's) of type and data.
    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        let crc = typed.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        return bigEndian(UInt32(data.count)) + typed + bigEndian(UInt32(crc))
    }

    /// A zlib stream of `bytes` (`compress2`, as Python's `zlib.compress(bytes, level)`).
    private static func deflate(_ bytes: [UInt8], level: Int32) throws -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), level)
            }
        }
        guard status == Z_OK else { throw PNGWriteFailed(message: "compress2 returned \(status)") }
        return Array(out.prefix(Int(length)))
    }
}
