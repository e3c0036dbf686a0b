import NewsstandFormat

/// What every shell's completion needs of a command, read from its declaration: its option
/// words, which of them take a value, and where its magazine is named (for issue names).
struct CompletionModel {
    let command: CommandDeclaration

    /// `--output`, `-o`, …, then `--help`, `-h`.
    var optionWords: [String] {
        (command.options + [OptionDeclaration.help]).flatMap { [$0.name] + ($0.alias.map { [$0] } ?? []) }
    }

    /// The option words that take a value (the next word is that value, not an operand).
    var valueOptionWords: [String] {
        command.options.filter { $0.value != nil }.flatMap { [$0.name] + ($0.alias.map { [$0] } ?? []) }
    }

    /// The position (from 1) of the operand that names the magazine, or 0.
    var magazineOperandPosition: Int {
        (command.operands.firstIndex { $0.kind == .magazine }).map { $0 + 1 } ?? 0
    }

    /// The option words that name the magazine (`--magazine`).
    var magazineOptionWords: [String] {
        command.options.filter { $0.value == .magazine }.flatMap { [$0.name] + ($0.alias.map { [$0] } ?? []) }
    }

    /// The words a value of `kind` completes to when they are fixed (choices, diagnostic codes).
    static func fixedWords(_ kind: ValueKind) -> [String]? {
        switch kind {
        case .choice(let choices): choices
        case .diagnosticCode: DiagnosticCode.allCases.map(\.rawValue)
        default: nil
        }
    }

    /// The regular expression an issue name must match to be offered: the names the tool
    /// accepts (`IssueName`), which also keeps anything a shell would expand out of a word list.
    static let issueNamePattern = "^[A-Za-z0-9_-][A-Za-z0-9._-]*$"
}
