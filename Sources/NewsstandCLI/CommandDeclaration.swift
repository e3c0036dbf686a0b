/// Everything a command says about itself, declared once: parsing, `--help`, usage errors, the
/// shell completions (`newsstand completions`) and the man page (`newsstand manpage`) are all
/// made from it.
public struct CommandDeclaration: Sendable {
    /// The word after `newsstand`.
    public var name: String
    /// One line for `newsstand --help`.
    public var summary: String
    /// The operands, in order.
    public var operands: [OperandDeclaration]
    /// The options (`--help` is added to every command).
    public var options: [OptionDeclaration]
    /// Usage lines that replace the generated one (a command whose forms differ by action).
    public var forms: [String]?
    /// Paragraphs of description, in order.
    public var description: [String]
    /// Exit statuses and what each means.
    public var exitStatuses: [(status: Int32, meaning: String)]
    /// Environment variables the command reads, and what for.
    public var environment: [(name: String, meaning: String)]

    /// The declaration of a command whose operands and options are `Options`' arguments.
    init<Options: CommandOptions>(
        name: String, summary: String, arguments: [Argument<Options>], forms: [String]? = nil, description: [String] = [],
        exitStatuses: [(status: Int32, meaning: String)] = [], environment: [(name: String, meaning: String)] = []
    ) {
        self.name = name
        self.summary = summary
        self.operands = arguments.compactMap(\.operand)
        self.options = arguments.compactMap(\.option)
        self.forms = forms
        self.description = description
        self.exitStatuses = exitStatuses
        self.environment = environment
    }

    /// Environment variables several commands read.
    static let templatesVariable = (name: "NEWSSTAND_TEMPLATES", meaning: "the templates folder (the built-in page classes)")
    static let sourceDateEpochVariable = (
        name: "SOURCE_DATE_EPOCH",
        meaning:
            "seconds since 1970: the time an Atom entry whose metadata changed is given, instead of the clock (reproducible builds)"
    )
    static let noColorVariable = (name: "NO_COLOR", meaning: "no colours, even on a terminal")
    /// The usage status of a command that writes beside a magazine.
    static let usageOrOverlap = (status: Int32(2), meaning: "usage error (also an output folder that overlaps the magazine)")
}

/// A positional argument.
public struct OperandDeclaration: Sendable {
    /// As usage shows it, without brackets (`magazine`, `catalog-url`).
    public var name: String
    /// What its value is.
    public var kind: ValueKind
    /// One line of help.
    public var help: String
    /// Whether the command runs without it (`--help` aside).
    public var isRequired: Bool
    /// Whether more than one may follow (`<name>...`).
    public var isRepeatable: Bool

    /// An operand called `name`, of `kind`: required and given once unless said otherwise.
    public init(_ name: String, _ kind: ValueKind, help: String, isRequired: Bool = true, isRepeatable: Bool = false) {
        self.name = name
        self.kind = kind
        self.help = help
        self.isRequired = isRequired
        self.isRepeatable = isRepeatable
    }
}

/// An option: a flag (`--force`) or one taking a value (`--format json`, `--format=json`).
public struct OptionDeclaration: Sendable {
    /// `--output`.
    public var name: String
    /// `-o`, when it has one.
    public var alias: String?
    /// What its value is; nil for a flag.
    public var value: ValueKind?
    /// How its value reads in usage and help (`DIR`, `N`, `S`); a choice's choices by default.
    public var placeholder: String?
    /// Whether the command runs without it (`--help` aside).
    public var isRequired: Bool
    /// Whether it may be given more than once (each value is kept).
    public var isRepeatable: Bool
    /// One line of help (wrapped when long).
    public var help: String

    /// `--help` (`-h`), which every command takes: its help is printed and nothing else checked.
    public static let help = OptionDeclaration(
        name: "--help", alias: "-h", value: nil, placeholder: nil, isRequired: false, isRepeatable: false, help: "show this help")

    /// How the value reads: `DIR`, or a choice's `text|json|github`.
    public var valueText: String? {
        guard let value else { return nil }
        if let placeholder { return placeholder }
        if case .choice(let choices) = value { return choices.joined(separator: "|") }
        return value.placeholder
    }
}
