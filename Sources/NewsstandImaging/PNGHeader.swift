/// The IHDR fields of a PNG that libvips does not report: the bit depth and colour type as stored
/// (libvips decodes a 2-bit grey or palette image to 8 bits).
struct PNGHeader: Equatable {
    /// 0 grey, 2 RGB, 3 palette, 4 grey and alpha, 6 RGBA.
    let colourType: Int
    let bitDepth: Int
    let isInterlaced: Bool

    /// Reads the signature and the IHDR chunk that must follow it; nil when they are not there.
    init?(_ bytes: [UInt8]) {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 29, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        bitDepth = Int(bytes[24])
        colourType = Int(bytes[25])
        isInterlaced = bytes[28] != 0
    }
}
