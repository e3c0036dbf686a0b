/// Text from outside (an archive entry's name, a catalog's values, a server's or another
/// program's words) made safe to show in a message: the one function every such text goes
/// through before a terminal or a log shows it. Every scalar that could hide in or rewrite the
/// line (`SafeRelativePath.isUnprintable`: C0 and C1 controls such as ESC, BEL, CR and CSI,
/// bidirectional overrides such as U+202E, zero-width and other invisible formatting characters,
/// line and paragraph separators, unassigned ones) is written as `\u{…}`, and long text is cut.
public enum PrintableText {
    /// The most characters shown of one text before `…`.
    public static let defaultLimit = 300

    /// `text` with anything unprintable escaped, cut after `limit` characters (nil: never).
    public static func escaped(_ text: String, limit: Int? = defaultLimit) -> String {
        let shown = limit.map { text.prefix($0) } ?? text[...]
        let cut = shown.endIndex < text.endIndex
        guard cut || shown.unicodeScalars.contains(where: SafeRelativePath.isUnprintable) else { return text }
        var out = ""
        for scalar in shown.unicodeScalars {
            append(scalar, to: &out, quoting: false)
        }
        return cut ? out + "…" : out
    }

    /// `text` in single quotes, escaped as `escaped` does, with `'` and `\` escaped too, so the
    /// quotes show where it begins and ends.
    public static func quoted(_ text: String, limit: Int? = defaultLimit) -> String {
        let shown = limit.map { text.prefix($0) } ?? text[...]
        var out = "'"
        for scalar in shown.unicodeScalars {
            append(scalar, to: &out, quoting: true)
        }
        return out + (shown.endIndex < text.endIndex ? "…'" : "'")
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String, quoting: Bool) {
        if SafeRelativePath.isUnprintable(scalar) {
            out += "\\u{" + String(scalar.value, radix: 16) + "}"
            return
        }
        if quoting, scalar == "'" || scalar == "\\" { out += "\\" }
        out.unicodeScalars.append(scalar)
    }
}
