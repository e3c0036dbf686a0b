/// The order people expect of numbered file names: runs of digits compare as numbers
/// (`page2` before `page10`, `p007` with `p7`), everything else character by character without
/// regard to case. Names equal in that order (`page1.png`, `Page01.png`) are ordered by their
/// bytes, so the order is total and the same on every machine.
public enum NaturalOrder {
    /// Whether `a` comes before `b`.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        let left = runs(a)
        let right = runs(b)
        for (x, y) in zip(left, right) {
            switch (x, y) {
            case (.number(let m), .number(let n)):
                if m != n { return isLess(number: m, than: n) }
            case (.text(let s), .text(let t)):
                if s != t { return s < t }
            case (.number, .text):
                return true  // digits before letters, as in ASCII
            case (.text, .number):
                return false
            }
        }
        if left.count != right.count { return left.count < right.count }
        return Array(a.utf8).lexicographicallyPrecedes(b.utf8)
    }

    /// Sorts `names` in natural order.
    public static func sorted(_ names: [String]) -> [String] { names.sorted(by: precedes) }

    private enum Run: Equatable {
        /// Digits without leading zeros ("0" for all zeros): compared by length, then digit by
        /// digit, so a number of any length compares without overflowing an integer.
        case number(Substring)
        /// Lowercased text.
        case text(String)
    }

    private static func runs(_ name: String) -> [Run] {
        var result: [Run] = []
        var rest = Substring(name)
        while let first = rest.first {
            if first.isASCII && first.isNumber {
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                rest = rest.dropFirst(digits.count)
                let trimmed = digits.drop { $0 == "0" }
                result.append(.number(trimmed.isEmpty ? "0" : trimmed))
            } else {
                let text = rest.prefix { !($0.isASCII && $0.isNumber) }
                rest = rest.dropFirst(text.count)
                result.append(.text(text.lowercased()))
            }
        }
        return result
    }

    private static func isLess(number m: Substring, than n: Substring) -> Bool {
        m.count != n.count ? m.count < n.count : m < n
    }
}
