/// A BCP 47 language tag's well-formedness, by RFC 5646's syntax (section 2.1), checked
/// subtag by subtag: a language of 2 or 3 letters (with up to three 3-letter extended
/// subtags) or of 5 to 8 letters, then an optional script (4 letters), an optional region
/// (2 letters or 3 digits), variants (5 to 8 letters or digits, or a digit and 3 more),
/// extensions (a singleton and subtags of 2 to 8) and a private use part (`x-` and subtags of
/// 1 to 8); or a private use tag alone. Case is not significant. Whether a subtag is in
/// IANA's registry is not checked: a typo such as `en_US`, `ru-` or `Russian language` is what
/// this catches (`english`, 7 letters, is well-formed).
public enum LanguageTag {
    /// The language of an issue when neither it nor its magazine says one.
    public static let fallback = "en"

    /// The language an issue is in: its own `Language`, else its magazine's, else `fallback`.
    /// The web edition's `lang`, the EPUB's `dc:language` and the feeds' entries say this.
    public static func of(issue: String?, magazine: String?) -> String {
        issue ?? magazine ?? fallback
    }

    /// Whether `text` is a well-formed language tag.
    public static func isWellFormed(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 255 else { return false }
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        guard subtags.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(isAlphanumeric) }) else { return false }
        var rest = subtags[...]
        if isSingleton(rest.first, "x") { return isPrivateUse(rest) }
        guard let language = rest.popFirst(), isLetters(language) else { return false }
        switch language.utf8.count {
        case 2, 3:
            var extended = 0
            while extended < 3, let next = rest.first, next.utf8.count == 3, isLetters(next) {
                rest.removeFirst()
                extended += 1
            }
        case 5...8: break
        default: return false
        }
        if let next = rest.first, next.utf8.count == 4, isLetters(next) { rest.removeFirst() }
        if let next = rest.first, (next.utf8.count == 2 && isLetters(next)) || (next.utf8.count == 3 && isDigits(next)) {
            rest.removeFirst()
        }
        while let next = rest.first, isVariant(next) { rest.removeFirst() }
        while let next = rest.first, next.utf8.count == 1, !isSingleton(next, "x") {
            rest.removeFirst()
            var count = 0
            while let part = rest.first, (2...8).contains(part.utf8.count) {
                rest.removeFirst()
                count += 1
            }
            guard count > 0 else { return false }
        }
        return rest.isEmpty || (isSingleton(rest.first, "x") && isPrivateUse(rest))
    }

    /// `x` and one or more subtags of 1 to 8 letters or digits.
    private static func isPrivateUse(_ subtags: ArraySlice<String>) -> Bool {
        subtags.count > 1 && subtags.dropFirst().allSatisfy { $0.utf8.count <= 8 }
    }

    private static func isVariant(_ subtag: String) -> Bool {
        let count = subtag.utf8.count
        return (5...8).contains(count) || (count == 4 && subtag.utf8.first.map(isDigit) == true)
    }

    private static func isSingleton(_ subtag: String?, _ letter: Character) -> Bool {
        subtag?.lowercased() == String(letter)
    }

    private static func isLetters(_ text: String) -> Bool { text.utf8.allSatisfy(isLetter) }
    private static func isDigits(_ text: String) -> Bool { text.utf8.allSatisfy(isDigit) }
    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
}
