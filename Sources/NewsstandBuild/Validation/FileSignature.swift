import Foundation

/// What a file's first bytes say it is, to catch content that does not match the extension
/// (a JPEG saved as `.png` works in a browser and fails in an app's image loader).
package enum FileSignature: String {
    case png = "PNG"
    case jpeg = "JPEG"
    case gif = "GIF"
    case webp = "WebP"
    case pdf = "PDF"
    case isoMedia = "MP4/QuickTime"
    case zip = "ZIP"
    case unknown = "unknown"

    /// The format a file name's extension promises, when it is one we can check.
    static func expected(forFileName name: String) -> FileSignature? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "png": return .png
        case "jpg", "jpeg": return .jpeg
        case "gif": return .gif
        case "webp": return .webp
        case "pdf": return .pdf
        case "mp4", "m4v", "mov", "m4a": return .isoMedia
        case "zip": return .zip
        default: return nil
        }
    }

    /// Identifies the format from a file's first 16 bytes.
    package static func detect(_ head: [UInt8]) -> FileSignature {
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<offset + bytes.count]) == bytes
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF8".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("%PDF".utf8)) { return .pdf }
        if starts(Array("ftyp".utf8), at: 4) { return .isoMedia }
        if starts([0x50, 0x4B, 0x03, 0x04]) || starts([0x50, 0x4B, 0x05, 0x06]) { return .zip }
        return .unknown
    }
}
