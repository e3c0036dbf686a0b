import Foundation
import NewsstandFormat

/// A usage mistake: printed with the command's usage, exit status 2.
public struct UsageError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// A command line parsed against a command's declaration: every option known, every value of
/// the kind declared, every required operand and option there.
public struct ParsedArguments: Sendable {
    public private(set) var operands: [String] = []
    private var flags: Set<String> = []
    private var values: [String: [String]] = [:]

    /// Whether `--name` was given.
    public func has(_ name: String) -> Bool { flags.contains(name) }
    /// The last value of `--name`, if given.
    public func value(_ name: String) -> String? { values[name]?.last }
    /// Every value of a repeatable `--name`.
    public func all(_ name: String) -> [String] { values[name] ?? [] }
    /// The value of a whole-number option (checked when parsed).
    public func number(_ name: String) -> Int64? { value(name).flatMap { Int64($0) } }
    /// The value of a seconds option (checked when parsed).
    public func seconds(_ name: String) -> Double? { value(name).flatMap { Double($0) } }
    /// Whether `--help` (or `-h`) was given: nothing else is checked then.
    public var wantsHelp: Bool { flags.contains("--help") }

    /// Parses `arguments` (after the command's name) against `declaration`.
    public static func parse(_ arguments: [String], for declaration: CommandDeclaration) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var onlyOperands = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyOperands || !argument.hasPrefix("-") || argument == "-" {
                result.operands.append(argument)
                continue
            }
            if argument == "--" {
                onlyOperands = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if name == "--help" || name == "-h" {
                result.flags.insert("--help")
                continue
            }
            guard let option = declaration.option(name) else {
                // The name only: `--tpo=http://user:secret@host/` must not echo its value.
                let known = declaration.options.map(\.name) + ["--help"]
                throw UsageError("unknown option '\(name)'\(Suggestion.hint(for: name, among: known))")
            }
            guard let kind = option.value else {
                guard inlineValue == nil else { throw UsageError("option \(option.name) takes no value") }
                result.flags.insert(option.name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError("option \(option.name) needs a value")
            }
            try check(value, as: kind, for: option.name)
            result.values[option.name, default: []].append(value)
        }
        guard !result.wantsHelp else { return result }
        try result.checkComplete(declaration)
        return result
    }

    /// Every required operand and option is there, and no operand too many.
    private func checkComplete(_ declaration: CommandDeclaration) throws(UsageError) {
        for (position, operand) in declaration.operands.enumerated() where operand.isRequired && operands.count <= position {
            throw UsageError("missing <\(operand.name)>")
        }
        if declaration.operands.last?.isRepeatable != true, operands.count > declaration.operands.count {
            throw UsageError("unexpected operand '\(operands[declaration.operands.count])'")
        }
        for (position, operand) in declaration.operands.enumerated() where position < operands.count {
            try Self.check(operands[position], as: operand.kind, for: "<\(operand.name)>")
        }
        for option in declaration.options where option.isRequired && values[option.name] == nil && !flags.contains(option.name) {
            throw UsageError("missing \(option.name) <\(option.placeholderWord)>")
        }
    }

    /// Checks one value against its kind; the error names the option or operand.
    static func check(_ value: String, as kind: ValueKind, for name: String) throws(UsageError) {
        switch kind {
        case .text, .folder, .magazine, .file, .issueName:
            return
        case .sha256:
            guard value.utf8.count == 64, value.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) || (65...70).contains($0) }) else {
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
                let listed = choices.count > 1 ? choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "") : choices.joined()
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
        }
    }
}
