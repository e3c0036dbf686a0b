/// An entry's name as text, whatever the locale of the process: zip says a name is UTF-8 when
/// general-purpose bit 11 is set, and CP437 otherwise; Info-ZIP adds the UTF-8 name in a Unicode
/// path field (0x7075) made for the header's raw name (checked by its CRC-32, so a field left
/// over from a renamed entry is ignored).
///
/// One leniency: a name without bit 11 that is valid UTF-8 and not plain ASCII is read as UTF-8.
/// macOS's Finder and `ditto` write UTF-8 names without the bit, and libarchive, which read our
/// bundles before, read them as UTF-8 too; CP437 text that happens to be valid UTF-8 (a
/// box-drawing or accented letter followed by exactly the right continuation letters) is rare.
enum ZipEntryName {
    /// General-purpose bit 11: the name and comment are UTF-8.
    static let utf8Flag: UInt16 = 1 << 11

    /// The name of an entry with `raw` name bytes, `flags` and `extra` fields.
    static func decode(_ raw: [UInt8], flags: UInt16, extra: ZipExtraField) -> String {
        if flags & utf8Flag != 0, let name = utf8(raw) { return name }
        if let unicode = extra.unicodePath, unicode.nameCRC == ZipCRC.of(raw), let name = utf8(unicode.name) {
            return name
        }
        if let name = utf8(raw) { return name }
        return cp437(raw)
    }

    /// `bytes` as UTF-8, or nil when they are not valid UTF-8 (`String(validating:)` is iOS 18).
    static func utf8(_ bytes: [UInt8]) -> String? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var text = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): text.append(scalar)
            case .emptyInput: return String(text)
            case .error: return nil
            }
        }
    }

    /// `bytes` in IBM code page 437, zip's original character set.
    static func cp437(_ bytes: [UInt8]) -> String {
        var text = String.UnicodeScalarView()
        for byte in bytes {
            text.append(byte < 0x80 ? Unicode.Scalar(byte) : cp437High[Int(byte - 0x80)])
        }
        return String(text)
    }

    /// Code page 437's characters for 0x80…0xFF.
    private static let cp437High: [Unicode.Scalar] = Array(
        "ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u{A0}"
            .unicodeScalars)
}
