import Foundation
import NewsstandBuild
import NewsstandFormat
import NewsstandImport

/// A Swift type an operand's or option's text becomes, once its `ValueKind` accepted the text.
protocol ArgumentValue {
    /// The kind a declaration gives an argument of this type when it names none.
    static var defaultKind: ValueKind { get }
    /// The value `text` stands for, or nil. A text its kind accepted is always read: a
    /// declaration whose kind and type disagree is refused by `DeclarationProblem.find`.
    init?(argument text: String)
}

extension String: ArgumentValue {
    static var defaultKind: ValueKind { .text }
    init?(argument text: String) { self = text }
}

extension Int: ArgumentValue {
    static var defaultKind: ValueKind { .wholeNumber(unit: nil, range: Int64(Int.min)...Int64(Int.max)) }
    init?(argument text: String) { self.init(text) }
}

extension Int64: ArgumentValue {
    static var defaultKind: ValueKind { .wholeNumber(unit: nil, range: .min ... .max) }
    init?(argument text: String) { self.init(text) }
}

/// Fractional numbers on our command lines are all seconds.
extension Double: ArgumentValue {
    static var defaultKind: ValueKind { .seconds(allowsZero: true) }
    init?(argument text: String) { self.init(text) }
}

/// A day: its midnight in UTC (the Date of an imported issue).
extension Date: ArgumentValue {
    static var defaultKind: ValueKind { .day }
    init?(argument text: String) {
        guard let date = ImportRequest.date(fromDay: text) else { return nil }
        self = date
    }
}

/// A length of time: `3600` (seconds), `90s`, `15m`, `12h`, `7d`; 1 second to 3,650 days.
extension Duration: ArgumentValue {
    static var defaultKind: ValueKind { .duration }
    init?(argument text: String) {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        var digits = Substring(text)
        var unit: Int64 = 1
        if let last = digits.last, let seconds = units[last] {
            unit = seconds
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let count = Int64(digits),
            count <= 3_650 * 86_400 / unit
        else { return nil }
        let seconds = count * unit
        guard (1...3_650 * 86_400).contains(seconds) else { return nil }
        self = .seconds(seconds)
    }
}

extension DiagnosticCode: ArgumentValue {
    static var defaultKind: ValueKind { .diagnosticCode }
    init?(argument text: String) { self.init(rawValue: text) }
}

/// An argument that is one of a few words: its type's cases, named by their raw values.
protocol ChoiceArgument: ArgumentValue, CaseIterable, RawRepresentable where RawValue == String {}

extension ChoiceArgument {
    static var defaultKind: ValueKind { .choice(allCases.map(\.rawValue)) }
    init?(argument text: String) { self.init(rawValue: text) }
}

extension Feed: ChoiceArgument {}
