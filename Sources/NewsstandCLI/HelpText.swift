/// `--help` and usage text, made from a command's declaration: the usage line, the
/// description, every operand and option (with its alias, value and help, in aligned columns),
/// the environment and the exit statuses. An option declared is an option shown.
enum HelpText {
    /// The width help text is wrapped to.
    static let width = 100

    /// The usage lines: `Usage: newsstand build <magazine> --output <folder> [--issue NAME]...`.
    static func usage(_ command: CommandDeclaration) -> String {
        if let forms = command.forms {
            return forms.enumerated().map { ($0.offset == 0 ? "Usage: " : "       ") + "newsstand \(command.name) " + $0.element }
                .joined(separator: "\n")
        }
        var words = command.operands.map { operand in
            let word = "<\(operand.name)>" + (operand.isRepeatable ? "..." : "")
            return operand.isRequired ? word : "[\(word)]"
        }
        for option in command.options.sorted(by: { $0.isRequired && !$1.isRequired }) {
            var word =
                option.name + (option.valueText.map { " " + (option.isRequired ? "<\(option.placeholderWord)>" : $0) } ?? "")
            if !option.isRequired { word = "[\(word)]" }
            if option.isRepeatable { word += "..." }
            words.append(word)
        }
        let lead = "Usage: newsstand \(command.name) "
        return wrap(words: words, first: lead, rest: String(repeating: " ", count: lead.count))
    }

    /// The whole `--help` text.
    static func help(_ command: CommandDeclaration) -> String {
        var sections = [usage(command)]
        sections += command.description.map { wrap($0, first: "", rest: "") }
        if !command.operands.isEmpty {
            sections.append("Arguments:\n" + table(command.operands.map { ("<\($0.name)>", $0.help) }))
        }
        let options = (command.options + [OptionDeclaration.help]).map { option -> (String, String) in
            let names = (option.alias.map { "\($0), " } ?? "    ") + option.name
            return (names + (option.valueText.map { " \($0)" } ?? ""), helpLine(option))
        }
        sections.append("Options:\n" + table(options))
        if !command.environment.isEmpty {
            sections.append("Environment:\n" + table(command.environment.map { ($0.name, $0.meaning) }))
        }
        if !command.exitStatuses.isEmpty {
            let statuses = command.exitStatuses.map { "\($0.status) \($0.meaning)" }.joined(separator: ", ")
            sections.append(wrap("Exit status: \(statuses).", first: "", rest: ""))
        }
        return sections.joined(separator: "\n\n")
    }

    private static func helpLine(_ option: OptionDeclaration) -> String {
        var line = option.help
        if option.isRequired { line += " (required)" }
        if option.isRepeatable { line += " (repeatable)" }
        return line
    }

    /// Two aligned columns: names, then help wrapped beside them.
    static func table(_ rows: [(String, String)]) -> String {
        let column = min(30, (rows.map(\.0.count).max() ?? 0) + 4)
        return rows.map { name, help in
            let lead = "  " + name
            let indent = String(repeating: " ", count: column)
            if lead.count + 2 > column {
                return lead + "\n" + wrap(help, first: indent, rest: indent)
            }
            return wrap(help, first: lead + String(repeating: " ", count: column - lead.count), rest: indent)
        }.joined(separator: "\n")
    }

    /// `text` wrapped at `width`, the first line after `first`, the others after `rest`.
    static func wrap(_ text: String, first: String, rest: String) -> String {
        wrap(words: text.split(separator: " ").map(String.init), first: first, rest: rest)
    }

    /// `words` (each kept whole) wrapped at `width`.
    static func wrap(words: [String], first: String, rest: String) -> String {
        var lines: [String] = []
        var line = first
        var lineHasWord = false
        for word in words {
            if lineHasWord, line.count + 1 + word.count > width {
                lines.append(line)
                line = rest
                lineHasWord = false
            }
            line += (lineHasWord ? " " : "") + word
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}

extension OptionDeclaration {
    /// The value's name in a usage line for a required option: `--output <folder>`.
    var placeholderWord: String {
        switch value {
        case .folder?, .magazine?: "folder"
        case .file?: "file"
        case .url?: "url"
        default: (valueText ?? "value").lowercased()
        }
    }
}
