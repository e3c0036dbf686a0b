/// A command's operands and options as one typed value, checked once when the command line is
/// parsed. Each property starts at its default (what `init()` gives) and is written by the
/// argument bound to it; `arguments` is the one list of those bindings, from which the
/// command's declaration, and so its help, usage errors, completions and man page, are made.
protocol CommandOptions {
    /// Every property at the value it has when the command line does not give it.
    init()
    /// The operands (in order) and options, each bound to its property.
    static var arguments: [Argument<Self>] { get }
    /// Checks that span several arguments, after every one is written (`--ci` needs
    /// `--release-url`); throws the usage error. None by default.
    func validate() throws(UsageError)
}

extension CommandOptions {
    func validate() throws(UsageError) {}

    /// The operand declarations, in order.
    static var operandDeclarations: [OperandDeclaration] { arguments.compactMap(\.operand) }
    /// The option declarations, in order (`--help` aside).
    static var optionDeclarations: [OptionDeclaration] { arguments.compactMap(\.option) }

    /// The options `words` (the command line after the command's name) give, or nil when they
    /// ask for `--help` (no operand or option is required then).
    static func parse(_ words: [String]) throws(UsageError) -> Self? {
        let arguments = arguments
        let scan = try ArgumentScan(words, operands: operandDeclarations, options: optionDeclarations)
        guard !scan.wantsHelp else { return nil }
        var options = Self()
        var operandPosition = 0
        for argument in arguments {
            let texts: [String]
            switch argument.role {
            case .operand(let operand):
                texts = Array(scan.operands.dropFirst(operandPosition).prefix(operand.isRepeatable ? .max : 1))
                operandPosition += 1
            case .option(let option):
                // A flag's occurrences carry no text: one entry says it was given.
                texts = option.value == nil ? (scan.firstPosition(of: option) == nil ? [] : [""]) : scan.values(of: option)
            }
            if !texts.isEmpty { try argument.write(&options, texts) }
        }
        try checkExclusiveFlags(arguments, scan)
        try options.validate()
        return options
    }

    /// How the command line spells the operand or option bound to `property` (`--width`,
    /// `<magazine>`), for messages that name it.
    static func name(_ property: PartialKeyPath<Self>) -> String {
        arguments.first { $0.property == property }?.displayName ?? "\(property)"
    }

    /// Two flags given that set the same property (`--verify --no-verify`) contradict each other.
    private static func checkExclusiveFlags(_ arguments: [Argument<Self>], _ scan: ArgumentScan) throws(UsageError) {
        let given = arguments.compactMap { argument -> (property: PartialKeyPath<Self>, name: String, position: Int)? in
            guard let option = argument.option, option.value == nil, let position = scan.firstPosition(of: option) else {
                return nil
            }
            return (argument.property, option.name, position)
        }
        for (index, first) in given.enumerated() {
            for second in given[(index + 1)...] where second.property == first.property {
                let (earlier, later) = first.position < second.position ? (first, second) : (second, first)
                throw UsageError("\(earlier.name) and \(later.name) contradict each other")
            }
        }
    }
}

/// The options of a command that takes none.
struct NoOptions: CommandOptions {
    static var arguments: [Argument<Self>] { [] }
}
