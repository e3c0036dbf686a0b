/// A usage mistake: printed with the command's usage, exit status 2.
public struct UsageError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// The options a command accepts: flags (`--force`), options with a value
/// (`--format json`, `--format=json`, repeatable), and positional arguments.
struct OptionSpec {
    var flags: Set<String> = []
    var values: Set<String> = []
    /// Short aliases: `-j` → `--jobs`.
    var aliases: [String: String] = [:]
}

/// The parsed command line of one command.
struct ParsedArguments {
    var positionals: [String] = []
    var flags: Set<String> = []
    var values: [String: [String]] = [:]

    /// Whether `--name` was given.
    func has(_ name: String) -> Bool { flags.contains(name) }
    /// The last value of `--name`, if given.
    func value(_ name: String) -> String? { values[name]?.last }
    /// Every value of a repeatable `--name`.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Parses `arguments` against `spec`; `--help` is always accepted as a flag.
    static func parse(_ arguments: [String], spec: OptionSpec) throws(UsageError) -> ParsedArguments {
        var result = ParsedArguments()
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                result.positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            name = spec.aliases[name] ?? name
            if name == "--help" || name == "-h" {
                result.flags.insert("--help")
            } else if spec.flags.contains(name) {
                guard inlineValue == nil else { throw UsageError("option \(name) takes no value") }
                result.flags.insert(name)
            } else if spec.values.contains(name) {
                if let inlineValue {
                    result.values[name, default: []].append(inlineValue)
                } else if index < arguments.count {
                    result.values[name, default: []].append(arguments[index])
                    index += 1
                } else {
                    throw UsageError("option \(name) needs a value")
                }
            } else {
                // The name only: `--tpo=http://user:secret@host/` must not echo its value.
                throw UsageError("unknown option '\(name)'")
            }
        }
        return result
    }
}
