/// Text put into XML or HTML (the Atom feed, the preview's pages, the plists of bundles): the
/// one escaping rule, safe in element content and in quoted attribute values alike.
public enum Markup {
    /// `text` with `& < > " '` as entities, and carriage returns as `&#13;` (which parsers
    /// would otherwise turn into line feeds).
    public static func escape(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether an XML 1.0 document can hold `scalar` (as text or a character reference).
    public static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }
}
