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

    public init(
        name: String, summary: String, operands: [OperandDeclaration] = [], options: [OptionDeclaration] = [],
        forms: [String]? = nil, description: [String] = [], exitStatuses: [(status: Int32, meaning: String)] = [],
        environment: [(name: String, meaning: String)] = []
    ) {
        self.name = name
        self.summary = summary
        self.operands = operands
        self.options = options
        self.forms = forms
        self.description = description
        self.exitStatuses = exitStatuses
        self.environment = environment
    }

    /// Environment variables several commands read.
    static let templatesVariable = (name: "NEWSSTAND_TEMPLATES", meaning: "the templates folder (the built-in page classes)")
    static let sourceDateEpochVariable = (
        name: "SOURCE_DATE_EPOCH",
        meaning: "seconds since 1970: the time an Atom entry whose metadata changed is given, instead of the clock (reproducible builds)"
    )
    static let noColorVariable = (name: "NO_COLOR", meaning: "no colours, even on a terminal")
    /// The usage status of a command that writes beside a magazine.
    static let usageOrOverlap = (status: Int32(2), meaning: "usage error (also an output folder that overlaps the magazine)")

    /// The option called `name` (`--output`) or aliased so (`-o`).
    public func option(_ name: String) -> OptionDeclaration? {
        options.first { $0.name == name || $0.alias == name }
    }
}

/// A positional argument.
public struct OperandDeclaration: Sendable {
    /// As usage shows it, without brackets (`magazine`, `catalog-url`).
    public var name: String
    public var kind: ValueKind
    public var help: String
    /// Whether the command runs without it (`--help` aside).
    public var isRequired: Bool
    /// Whether more than one may follow (`<name>...`).
    public var isRepeatable: Bool

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
    public var isRequired: Bool
    /// Whether it may be given more than once (each value is kept).
    public var isRepeatable: Bool
    /// One line of help (wrapped when long).
    public var help: String

    /// A flag.
    public static func flag(_ name: String, alias: String? = nil, help: String) -> OptionDeclaration {
        OptionDeclaration(
            name: name, alias: alias, value: nil, placeholder: nil, isRequired: false, isRepeatable: false, help: help)
    }

    /// An option with a value.
    public static func value(
        _ name: String, alias: String? = nil, _ kind: ValueKind, placeholder: String? = nil, isRequired: Bool = false,
        isRepeatable: Bool = false, help: String
    ) -> OptionDeclaration {
        OptionDeclaration(
            name: name, alias: alias, value: kind, placeholder: placeholder, isRequired: isRequired,
            isRepeatable: isRepeatable, help: help)
    }

    /// How the value reads: `DIR`, or a choice's `text|json|github`.
    public var valueText: String? {
        guard let value else { return nil }
        if let placeholder { return placeholder }
        if case .choice(let choices) = value { return choices.joined(separator: "|") }
        return value.placeholder
    }
}

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
        }
    }
}
