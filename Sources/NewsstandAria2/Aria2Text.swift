import NewsstandCore
import NewsstandReader

/// Text from aria2 (an error message, a path) made fit for an error or a log: at most
/// `maxCharacters`, control characters as `?`, and user information cut out of any URL in it
/// (`Redacted`), so that neither a long answer nor escape sequences nor a credential reach a
/// terminal.
enum Aria2Text {
    static let maxCharacters = 300

    static func printable(_ text: String) -> String {
        var out = ""
        for character in text.prefix(maxCharacters) {
            out.append(character.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? "?" : character)
        }
        if text.count > maxCharacters { out += "…" }
        return Redacted.message(out)
    }
}
