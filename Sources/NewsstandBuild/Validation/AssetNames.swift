import NewsstandCore

/// The names in an issue's `assets/`, looked up as the file system spells them: byte for byte.
///
/// Swift's `String` equality is canonical equivalence, so `é.png` composed (NFC, `c3 a9`) and
/// decomposed (NFD, `65 cc 81`) compare equal and share a slot in a `Set`, while Linux keeps
/// them as two files (and opens only the spelling asked for) and Apple file systems as one.
/// Every question here is asked of the bytes, and names that are one text in two spellings are
/// found rather than merged.
struct AssetNames {
    /// Every name, as spelled on disk.
    private(set) var all: [String] = []
    private var spelled: Set<[UInt8]> = []
    /// By text (canonical equivalence): the spellings of each.
    private var byText: [String: [String]] = [:]
    /// By lowercased text: the first spelling seen.
    private var byLowercase: [String: String] = [:]

    init(_ names: some Sequence<String>) {
        for name in names where spelled.insert(Array(name.utf8)).inserted {
            all.append(name)
            byText[name, default: []].append(name)
            if byLowercase[name.lowercased()] == nil { byLowercase[name.lowercased()] = name }
        }
    }

    /// Whether a file is spelled exactly `name`.
    func contains(_ name: String) -> Bool { spelled.contains(Array(name.utf8)) }

    /// The name on disk that is `name`'s text in another normalisation form, when `name` itself
    /// is not there.
    func otherSpelling(of name: String) -> String? {
        guard !contains(name) else { return nil }
        return byText[name]?.first
    }

    /// A name on disk that differs from `name` in letter case (or in its spelling), when `name`
    /// itself is not there.
    func otherCase(of name: String) -> String? {
        guard !contains(name) else { return nil }
        return byLowercase[name.lowercased()]
    }

    /// The groups of names on disk that are one text in different spellings, each sorted by
    /// bytes, in the order of their first name.
    var collisions: [[String]] {
        byText.values.filter { $0.count > 1 }.map { $0.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) } }
            .sorted { Array($0[0].utf8).lexicographicallyPrecedes(Array($1[0].utf8)) }
    }

    /// A name with every non-ASCII scalar written as `\u{…}`, so that two spellings that look
    /// alike in a message are told apart (`e\u{301}.png`, `\u{e9}.png`).
    static func spelling(_ name: String) -> String {
        name.unicodeScalars.map { $0.isASCII ? String($0) : "\\u{\(String($0.value, radix: 16))}" }.joined()
    }
}
