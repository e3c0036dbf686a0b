import NewsstandCore

/// The key of one transfer: the issue's name and the generation of its transfer, raised on
/// every start and restart. Engines know a transfer only by this key (a URLSession task's
/// `taskDescription`, an aria2 download's options), written `name#generation`: task identifiers
/// start again at 1 in every session, so they are no key, and an event that carries an older
/// generation than the issue's current one is stale and ignored.
public struct TransferID: Hashable, Sendable, CustomStringConvertible {
    /// The issue.
    public var name: String
    /// The transfer's generation (1 for an issue's first transfer).
    public var generation: Int

    /// A key for `name`'s transfer of `generation`.
    public init(name: String, generation: Int) {
        self.name = name
        self.generation = generation
    }

    /// Reads `name#generation`; nil for anything else (another app's task, a damaged record).
    /// The name is checked as issue names are (`IssueName.isSafe`), so a description from outside
    /// can never name a path.
    public init?(_ text: String) {
        guard let mark = text.lastIndex(of: "#") else { return nil }
        let name = String(text[..<mark])
        let digits = text[text.index(after: mark)...]
        guard IssueName.isSafe(name), !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            let generation = Int(digits), generation > 0
        else { return nil }
        self.init(name: name, generation: generation)
    }

    /// `name#generation`.
    public var description: String { "\(name)#\(generation)" }
}
