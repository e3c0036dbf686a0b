import Foundation
import NewsstandFormat

/// What a value is: checked when the command line is parsed, named in help, and what a shell
/// completes (folders, files, issue names read from the magazine, choices, diagnostic codes).
public enum ValueKind: Sendable, Equatable {
    /// Free text (a destination, a catalog URL or folder path).
    case text
    /// A folder path.
    case folder
    /// A magazine's folder: a folder, and where a shell completes issue names from.
    case magazine
    /// A file path.
    case file
    /// An absolute http(s) URL.
    case url
    /// A SHA-256 digest: 64 hexadecimal digits.
    case sha256
    /// An issue's name.
    case issueName
    /// A diagnostic code (`NS-306`): one of `DiagnosticCode`'s.
    case diagnosticCode
    /// One of these words.
    case choice([String])
    /// A whole number within `range`, counting `unit` (for messages: "seconds").
    case wholeNumber(unit: String?, range: ClosedRange<Int64>)
    /// A number of seconds, at least 0 or above 0.
    case seconds(allowsZero: Bool)
    /// A calendar day, `YYYY-MM-DD`, that exists (2026-02-30 does not).
    case day
    /// A length of time: a whole number and a unit, `s` (the default), `m`, `h` or `d`
    /// (`3600`, `90m`, `12h`, `7d`), from 1 second to 3,650 days.
    case duration

    /// The placeholder when the declaration gives none.
    var placeholder: String {
        switch self {
        case .text: "TEXT"
        case .folder, .magazine: "DIR"
        case .file: "FILE"
        case .url: "URL"
        case .sha256: "SHA256"
        case .issueName: "NAME"
        case .diagnosticCode: "CODE"
        case .choice(let choices): choices.joined(separator: "|")
        case .wholeNumber: "N"
        case .seconds: "SECONDS"
        case .day: "YYYY-MM-DD"
        case .duration: "DURATION"
        }
    }

    /// Texts this kind accepts, its edges among them: every one must become a value of the
    /// property an argument of this kind is bound to (`DeclarationProblem.unreadableValue`).
    var samples: [String] {
        switch self {
        case .text, .folder, .magazine, .file, .issueName: ["a-1"]
        case .url: ["https://example.com/a.tar.gz"]
        case .sha256: [String(repeating: "0", count: 64)]
        case .diagnosticCode: DiagnosticCode.allCases.map(\.rawValue)
        case .choice(let choices): choices
        case .wholeNumber(_, let range): [String(range.lowerBound), String(range.upperBound)]
        case .seconds(let allowsZero): (allowsZero ? ["0"] : []) + ["0.5", "86400"]
        case .day: ["2026-03-01"]
        case .duration: ["1", "90s", "15m", "12h", "3650d"]
        }
    }

    /// Checks one text against this kind; the error names the option or operand (`name`).
    func check(_ value: String, for name: String) throws(UsageError) {
        switch self {
        case .text, .folder, .magazine, .file, .issueName:
            return
        case .sha256:
            guard value.utf8.count == 64,
                value.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) })
            else {
                throw UsageError("\(name) needs a SHA-256 digest (64 hexadecimal digits), got '\(value)'")
            }
        case .url:
            guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
                url.host?.isEmpty == false
            else { throw UsageError("\(name) needs an http(s) URL, got '\(value)'") }
        case .diagnosticCode:
            guard DiagnosticCode(rawValue: value) != nil else {
                let hint = Suggestion.hint(for: value, among: DiagnosticCode.allCases.map(\.rawValue))
                throw UsageError("unknown diagnostic code '\(value)' for \(name)\(hint)")
            }
        case .choice(let choices):
            guard choices.contains(value) else {
                let noun = name.filter { $0 != "-" && $0 != "<" && $0 != ">" }
                let listed =
                    choices.count > 1
                    ? choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "") : choices.joined()
                throw UsageError("unknown \(noun) '\(value)'; expected \(listed)")
            }
        case .wholeNumber(let unit, let range):
            guard let number = Int64(value), range.contains(number) else {
                let what = "a whole number" + (unit.map { " of \($0)" } ?? "")
                let bounds: String
                if range.upperBound != .max {
                    bounds = " from \(range.lowerBound) to \(range.upperBound)"
                } else if range.lowerBound == 1 {
                    bounds = " above 0"
                } else if range.lowerBound != 0 {
                    bounds = " from \(range.lowerBound)"
                } else {
                    bounds = ""
                }
                throw UsageError("\(name) needs \(what)\(bounds), got '\(value)'")
            }
        case .seconds(let allowsZero):
            guard let seconds = Double(value), seconds.isFinite, allowsZero ? seconds >= 0 : seconds > 0 else {
                throw UsageError("\(name) needs a number of seconds\(allowsZero ? "" : " above 0"), got '\(value)'")
            }
        case .day:
            guard Date(argument: value) != nil else {
                throw UsageError("\(name) needs a day as YYYY-MM-DD (2026-03-01), got '\(value)'")
            }
        case .duration:
            guard Duration(argument: value) != nil else {
                throw UsageError(
                    "\(name) needs a duration from 1 second to 3650 days: a whole number and s, m, h or d (3600, 90m, 12h, 7d), got '\(value)'"
                )
            }
        }
    }
}
