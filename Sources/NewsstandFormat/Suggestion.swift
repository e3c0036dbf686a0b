/// "Did you mean" suggestions for near-miss names: the one rule the validators, the schema
/// and the command line use.
public enum Suggestion {
    /// The candidate closest to `word` by edit distance (ignoring case), if it is close enough
    /// to be a likely typo.
    /// "; did you mean 'X'?" when a candidate is close to `word`, else nothing: the end of a message.
    public static func hint(for word: String, among candidates: some Sequence<String>) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    public static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        // A name far longer than any near miss gets no suggestion (and no quadratic work).
        guard word.utf8.count <= 256 else { return nil }
        let target = Array(word.lowercased())
        var best: (String, Int)?
        for candidate in candidates {
            // Names differing in length by more than the edit limit cannot be near misses.
            guard abs(candidate.utf8.count - word.utf8.count) <= 12 else { continue }
            let distance = editDistance(target, Array(candidate.lowercased()))
            let limit = max(1, min(3, candidate.count / 3))
            if distance <= limit, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// Damerau–Levenshtein distance (adjacent transpositions count as one edit: `Pgae` → `Page`).
    public static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            previous2 = previous
            previous = current
        }
        return previous[b.count]
    }
}
