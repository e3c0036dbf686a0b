/// One command's page of the Markdown reference (`newsstand reference`), made from its
/// declaration like `--help` and the man page: usage, description, every operand and option
/// (alias, value, whether required or repeatable), the environment and the exit statuses.
enum CommandReference {
    /// The page's file name in the reference folder: `commands/build.md`.
    static func path(_ command: CommandDeclaration) -> String { "commands/\(command.name).md" }

    /// The page of `command`.
    static func page(_ command: CommandDeclaration) -> String {
        var sections = [
            Markdown.generatedNotice(from: "the declaration of `newsstand \(command.name)` (Sources/NewsstandCLI)"),
            "# newsstand \(command.name)",
            Markdown.text(sentence(command.summary)),
            "```\n" + usageLines(command) + "\n```",
        ]
        sections += command.description.map(Markdown.text)
        if !command.operands.isEmpty {
            sections.append("## Operands")
            sections.append(
                Markdown.table(
                    ["operand", "what it is"],
                    command.operands.map { operand in
                        var notes: [String] = []
                        if !operand.isRequired { notes.append("optional") }
                        if operand.isRepeatable { notes.append("repeatable") }
                        return [Markdown.code("<\(operand.name)>"), Markdown.text(withNotes(operand.help, notes))]
                    }))
        }
        sections.append("## Options")
        sections.append(
            Markdown.table(
                ["option", "value", "what it does"],
                (command.options + [OptionDeclaration.help]).map { option in
                    let names = ([option.name] + (option.alias.map { [$0] } ?? [])).map { Markdown.code($0) }
                    var notes: [String] = []
                    if option.isRequired { notes.append("required") }
                    if option.isRepeatable { notes.append("repeatable") }
                    return [
                        names.joined(separator: ", "), option.valueText.map { Markdown.code($0) } ?? "",
                        Markdown.text(withNotes(option.help, notes)),
                    ]
                }))
        if !command.environment.isEmpty {
            sections.append("## Environment")
            sections.append(
                Markdown.table(
                    ["variable", "what it is for"],
                    command.environment.map { [Markdown.code($0.name), Markdown.text($0.meaning)] }))
        }
        if !command.exitStatuses.isEmpty {
            sections.append("## Exit status")
            sections.append(
                Markdown.table(
                    ["status", "meaning"], command.exitStatuses.map { [String($0.status), Markdown.text($0.meaning)] }))
        }
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The usage as `--help` prints it, without the `Usage: ` in front of each form.
    private static func usageLines(_ command: CommandDeclaration) -> String {
        HelpText.usage(command).split(separator: "\n").map { String($0.dropFirst("Usage: ".count)) }
            .joined(separator: "\n")
    }

    private static func withNotes(_ help: String, _ notes: [String]) -> String {
        notes.isEmpty ? help : help + " (" + notes.joined(separator: ", ") + ")"
    }

    /// `summary` as a sentence: capitalised, with a full stop.
    static func sentence(_ summary: String) -> String {
        guard let first = summary.first else { return summary }
        let text = first.uppercased() + summary.dropFirst()
        return text.hasSuffix(".") ? text : text + "."
    }
}
