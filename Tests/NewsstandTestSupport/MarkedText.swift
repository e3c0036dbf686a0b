/// Fixture text with its expected places marked, as swift-format's tests mark findings: a
/// `⟦name⟧` anywhere on a line names that line. The marks are stripped from the text a test
/// writes, and a test asserts against `line(of:)` instead of a number, so adding a line to a
/// fixture moves the expectation with it.
public struct MarkedText: Sendable, Equatable {
    /// The text without its marks.
    public let text: String
    /// The 1-based line of each mark.
    public let lines: [String: Int]

    /// Reads the marks out of `marked`. A mark left open (`⟦` without `⟧`) stays in the text.
    public init(_ marked: String) {
        var text = ""
        var lines: [String: Int] = [:]
        var line = 1
        var rest = Substring(marked)
        while let open = rest.firstIndex(of: "⟦") {
            let before = rest[..<open]
            line += before.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
            text += before
            guard let close = rest[open...].firstIndex(of: "⟧") else {
                rest = rest[open...]
                break
            }
            lines[String(rest[rest.index(after: open)..<close])] = line
            rest = rest[rest.index(after: close)...]
        }
        text += rest
        self.text = text
        self.lines = lines
    }

    /// The line `mark` is on; a mark the text lacks is a test's mistake, reported as line 0
    /// (which no diagnostic has).
    public func line(of mark: String) -> Int { lines[mark] ?? 0 }
}
