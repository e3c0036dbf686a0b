/// A mistake in a command's declaration: what swift-argument-parser's declaration validators
/// refuse, and what our typed arguments add. `NewsstandCommand.declarationProblems` lists every
/// command's, and a test requires there be none.
public enum DeclarationProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two options, an option and `--help`, or two operands share a name or an alias.
    case duplicateName(command: String, name: String)
    /// An option's name is not `--` and lowercase words joined by `-`, or its alias not `-` and
    /// one letter or digit.
    case malformedName(command: String, name: String)
    /// A required operand after an optional one, or any operand after a repeatable one.
    case misplacedOperand(command: String, operand: String)
    /// A text the argument's kind accepts does not become a value of its property's type.
    case unreadableValue(command: String, argument: String, text: String)
    /// Arguments that write the same property, not all of them flags.
    case sharedProperty(command: String, arguments: [String])
    /// A choice of no words, or of one word twice.
    case badChoice(command: String, argument: String)
    /// The declaration's operands or options are not its `Options`' arguments.
    case declarationDiffersFromOptions(command: String)

    public var description: String {
        switch self {
        case .duplicateName(let command, let name): "\(command): '\(name)' names more than one argument"
        case .malformedName(let command, let name): "\(command): '\(name)' is not a long option (--word-word) or an alias (-x)"
        case .misplacedOperand(let command, let operand):
            "\(command): <\(operand)> follows a repeatable operand, or is required after an optional one"
        case .unreadableValue(let command, let argument, let text):
            "\(command): \(argument) accepts '\(text)' but its property's type cannot hold it"
        case .sharedProperty(let command, let arguments):
            "\(command): \(arguments.joined(separator: ", ")) write the same property (only flags may)"
        case .badChoice(let command, let argument): "\(command): \(argument) offers no choice, or one twice"
        case .declarationDiffersFromOptions(let command): "\(command): the declaration is not made from the command's Options"
        }
    }

    /// Every problem of `declaration`, whose arguments are `arguments`.
    static func find<Options>(in declaration: CommandDeclaration, arguments: [Argument<Options>]) -> [DeclarationProblem] {
        let command = declaration.name
        var problems: [DeclarationProblem] = []
        let options = arguments.compactMap(\.option)
        let operands = arguments.compactMap(\.operand)
        if declaration.options.map(\.name) != options.map(\.name) || declaration.operands.map(\.name) != operands.map(\.name) {
            problems.append(.declarationDiffersFromOptions(command: command))
        }
        let names = (options + [OptionDeclaration.help]).flatMap { [$0.name] + ($0.alias.map { [$0] } ?? []) }
        for name in names where !isLongName(name) && !isAlias(name) {
            problems.append(.malformedName(command: command, name: name))
        }
        for name in duplicates(names) + duplicates(operands.map(\.name)) {
            problems.append(.duplicateName(command: command, name: name))
        }
        problems += operandProblems(operands, command: command)
        for argument in arguments {
            let kind = argument.operand?.kind ?? argument.option?.value
            if case .choice(let choices) = kind, choices.isEmpty || !duplicates(choices).isEmpty {
                problems.append(.badChoice(command: command, argument: argument.displayName))
            }
            if let text = kind?.samples.first(where: { !argument.reads($0) }) {
                problems.append(.unreadableValue(command: command, argument: argument.displayName, text: text))
            }
        }
        for (index, argument) in arguments.enumerated()
        where !arguments[..<index].contains(where: { $0.property == argument.property }) {
            let sharing = arguments.filter { $0.property == argument.property }
            if sharing.count > 1, !sharing.allSatisfy({ $0.option.map { $0.value == nil } ?? false }) {
                problems.append(.sharedProperty(command: command, arguments: sharing.map(\.displayName)))
            }
        }
        return problems
    }

    private static func operandProblems(_ operands: [OperandDeclaration], command: String) -> [DeclarationProblem] {
        var problems: [DeclarationProblem] = []
        var sawOptional = false
        var sawRepeatable = false
        for operand in operands {
            if sawRepeatable || (sawOptional && operand.isRequired) {
                problems.append(.misplacedOperand(command: command, operand: operand.name))
            }
            sawOptional = sawOptional || !operand.isRequired
            sawRepeatable = sawRepeatable || operand.isRepeatable
        }
        return problems
    }

    /// `--word` or `--word-word…`, of lowercase letters and digits.
    private static func isLongName(_ name: String) -> Bool {
        guard name.hasPrefix("--") else { return false }
        let words = name.dropFirst(2).split(separator: "-", omittingEmptySubsequences: false)
        return words.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) } }
    }

    /// `-x`: one ASCII letter or digit.
    private static func isAlias(_ name: String) -> Bool {
        name.count == 2 && name.hasPrefix("-") && name.last.map { $0.isASCII && ($0.isLetter || $0.isNumber) } == true
    }

    /// The words that occur more than once, each once, in order of first occurrence.
    private static func duplicates(_ words: [String]) -> [String] {
        var seen: Set<String> = []
        var repeated: [String] = []
        for word in words where !seen.insert(word).inserted && !repeated.contains(word) { repeated.append(word) }
        return repeated
    }
}
