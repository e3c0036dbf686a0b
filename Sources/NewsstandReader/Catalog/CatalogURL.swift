import Foundation

/// A URL as a catalog writes it (absolute, or relative to the catalog), resolved by one rule on
/// every platform.
///
/// `URL(string:relativeTo:)` does not: linked against iOS 17 / macOS 14 and run there, and in
/// swift-corelibs-foundation on Linux, it percent-encodes a character a URL may not hold (a
/// space, `|`, a letter outside ASCII); on iOS 15 and 16 and macOS 12 and 13 it returns nil. A
/// catalog of another tool naming `issue 1.zip` would then list the issue on one device and
/// leave it out, as a bad URL, on another. So the text is made valid first, the way the newer
/// Foundation does it, and only then parsed:
/// - in the path, query and fragment, every byte that RFC 3986 does not allow there (and `[`
///   and `]`, which it allows only in a host, and a second `#`) is percent-encoded, as is a `%`
///   that does not start an escape (`%` and two hex digits); escapes already there are kept;
/// - a host or user part that would need the same is refused (nil): the newer Foundation would
///   encode a name outside ASCII with IDNA, the older refuses it, and no device should fetch
///   from a host the text does not name as written.
enum CatalogURL {
    /// `text` resolved against `base`, absolute; nil when it cannot be a URL.
    static func resolve(_ text: String, against base: URL) -> URL? {
        guard let valid = encoded(text) else { return nil }
        return URL(string: valid, relativeTo: base)?.absoluteURL
    }

    /// `text` with what a URL may not hold percent-encoded outside its authority; nil when its
    /// authority holds such a byte. Text that is already a valid URL is returned unchanged.
    static func encoded(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        let authority = authorityRange(of: bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        var inFragment = false
        while index < bytes.count {
            let byte = bytes[index]
            let inAuthority = authority.map { $0.contains(index) } ?? false
            // A fragment may not hold a second `#`.
            if byte == UInt8(ascii: "#"), !inAuthority {
                if inFragment {
                    appendEscape(byte, to: &out)
                    index += 1
                    continue
                }
                inFragment = true
            }
            if byte == UInt8(ascii: "%") {
                if index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) {
                    out.append(contentsOf: bytes[index...index + 2])
                    index += 3
                    continue
                }
                if inAuthority { return nil }
                appendEscape(byte, to: &out)
            } else if isAllowed(byte, inAuthority: inAuthority) {
                out.append(byte)
            } else {
                if inAuthority { return nil }
                appendEscape(byte, to: &out)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of the authority (after `scheme://` or a leading `//`, up to the path, query
    /// or fragment), if the text has one.
    private static func authorityRange(of bytes: [UInt8]) -> Range<Int>? {
        var start = 0
        if let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isScheme(bytes[..<colon]) {
            start = colon + 1
        }
        guard start + 1 < bytes.count, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") else {
            return nil
        }
        let from = start + 2
        let end = bytes[from...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        return from..<(end ?? bytes.count)
    }

    /// RFC 3986's `scheme`: a letter, then letters, digits, `+`, `-` and `.`.
    private static func isScheme(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard let first = bytes.first, isLetter(first) else { return false }
        return bytes.allSatisfy {
            isLetter($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    /// Unreserved characters, sub-delimiters, `:`, `/`, `?`, `#` and `@` anywhere; `[` and `]`
    /// only in the authority (an IP-literal host).
    private static func isAllowed(_ byte: UInt8, inAuthority: Bool) -> Bool {
        if isLetter(byte) || isDigit(byte) { return true }
        switch byte {
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): return true
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        case UInt8(ascii: ":"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"): return true
        case UInt8(ascii: "["), UInt8(ascii: "]"): return inAuthority
        default: return false
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "%"))
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0x0F)])
    }
}
