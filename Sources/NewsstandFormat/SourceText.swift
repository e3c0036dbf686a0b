import NewsstandCore

/// Helpers for writing messages that quote user values.
public enum SourceText {
    /// A value quoted for a message, shortened when long, with anything unprintable escaped
    /// (`printable`): a value from a file can neither break the message's line nor hide in it.
    public static func quoted(_ value: String) -> String {
        let limit = 60
        if value.count <= limit { return "'\(printable(value))'" }
        return "'\(printable(String(value.prefix(limit))))…'"
    }

    /// `text` with every scalar that could hide in or rewrite a line (a line feed, an escape
    /// sequence, a right-to-left override: `SafeRelativePath.isUnprintable`) written as
    /// `\u{…}`, so that one diagnostic stays one line of a terminal or log.
    public static func printable(_ text: String) -> String { PrintableText.escaped(text, limit: nil) }
}
