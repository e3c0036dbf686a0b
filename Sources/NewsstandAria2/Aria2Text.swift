import NewsstandCore
import NewsstandReader

/// Text from aria2 (an error message, a path) made fit for an error or a log: at most
/// `maxCharacters`, anything unprintable escaped as every name and server's words are
/// (`PrintableText`), and user information cut out of any URL in it (`Redacted`), so that
/// neither a long answer nor escape sequences nor a credential reach a terminal.
enum Aria2Text {
    static let maxCharacters = PrintableText.defaultLimit

    static func printable(_ text: String) -> String {
        Redacted.message(PrintableText.escaped(text, limit: maxCharacters))
    }
}
