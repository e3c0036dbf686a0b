import NewsstandFormat

/// The words of a command line sorted against a command's declarations, before they become its
/// `Options`: every option known, every value of the kind declared, every required operand and
/// option there. Only `CommandOptions.parse` reads it, through each argument's declaration:
/// nothing looks a value up by a name spelled anywhere else.
struct ArgumentScan {
    /// The operands, in order.
    private(set) var operands: [String] = []
    /// Every option given, in command-line order: its declared name (an alias is resolved) and
    /// its value (nil for a flag).
    private(set) var options: [(name: String, value: String?)] = []
    /// Whether `--help` (or `-h`) was given: no operand or option is required then.
    private(set) var wantsHelp = false

    /// Sorts `words` (after the command's name) against `operandDeclarations` and `optionDeclarations`.
    init(_ words: [String], operands operandDeclarations: [OperandDeclaration], options optionDeclarations: [OptionDeclaration])
        throws(UsageError)
    {
        var index = 0
        var onlyOperands = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyOperands || !word.hasPrefix("-") || word == "-" {
                operands.append(word)
                continue
            }
            if word == "--" {
                onlyOperands = true
                continue
            }
            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "="), word.hasPrefix("--") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            if name == OptionDeclaration.help.name || name == OptionDeclaration.help.alias {
                wantsHelp = true
                continue
            }
            guard let option = optionDeclarations.first(where: { $0.name == name || $0.alias == name }) else {
                // The name only: `--tpo=http://user:secret@host/` must not echo its value.
                let known = optionDeclarations.map(\.name) + [OptionDeclaration.help.name]
                throw UsageError("unknown option '\(name)'\(Suggestion.hint(for: name, among: known))")
            }
            guard let kind = option.value else {
                guard inlineValue == nil else { throw UsageError("option \(option.name) takes no value") }
                options.append((option.name, nil))
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else if index < words.count {
                value = words[index]
                index += 1
            } else {
                throw UsageError("option \(option.name) needs a value")
            }
            try kind.check(value, for: option.name)
            options.append((option.name, value))
        }
        guard !wantsHelp else { return }
        try checkComplete(operandDeclarations, optionDeclarations)
    }

    /// The values given for the option called `name`, in command-line order.
    func values(of option: OptionDeclaration) -> [String] {
        options.compactMap { $0.name == option.name ? $0.value : nil }
    }

    /// Where the option was first given (its index among the options), or nil.
    func firstPosition(of option: OptionDeclaration) -> Int? {
        options.firstIndex { $0.name == option.name }
    }

    /// Every required operand and option is there, and no operand too many.
    private func checkComplete(_ operandDeclarations: [OperandDeclaration], _ optionDeclarations: [OptionDeclaration])
        throws(UsageError)
    {
        for (position, operand) in operandDeclarations.enumerated() where operand.isRequired && operands.count <= position {
            throw UsageError("missing <\(operand.name)>")
        }
        if operandDeclarations.last?.isRepeatable != true, operands.count > operandDeclarations.count {
            throw UsageError("unexpected operand '\(operands[operandDeclarations.count])'")
        }
        // A repeatable last operand's declaration covers every operand after it.
        for (position, text) in operands.enumerated() {
            let operand = operandDeclarations[min(position, operandDeclarations.count - 1)]
            try operand.kind.check(text, for: "<\(operand.name)>")
        }
        for option in optionDeclarations where option.isRequired && firstPosition(of: option) == nil {
            throw UsageError("missing \(option.name) <\(option.placeholderWord)>")
        }
    }
}
