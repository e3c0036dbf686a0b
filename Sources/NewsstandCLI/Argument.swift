/// One operand or option of a command, declared once, beside the property of the command's
/// `Options` its value is written to: swift-argument-parser's `@Argument`, `@Option`, `@Flag`
/// and `@OptionGroup`, without reflection. The declaration is what parsing, `--help`, usage
/// errors, the completions and the man page read; the property is how the command reads the
/// value, so no option name is spelled anywhere else.
///
/// The property's type says how often the argument may be given: `V` once (`required`, or
/// `value` keeping the property's initial value when it is not given), `V?` at most once (the
/// last one given wins), `[V]` any number of times (repeatable, every value kept in order).
struct Argument<Options> {
    /// What the command line sees.
    enum Role {
        case operand(OperandDeclaration)
        case option(OptionDeclaration)
    }

    let role: Role
    /// The property written: how messages name the argument (`CommandOptions.name(_:)`) and how
    /// flags that set the same property are known to exclude each other.
    let property: PartialKeyPath<Options>
    /// Whether `text` becomes a value of the property's type (`DeclarationProblem`'s check of
    /// the kind's samples).
    let reads: (_ text: String) -> Bool
    /// Writes the texts given for the argument (already checked against its kind, at least one).
    let write: (_ options: inout Options, _ texts: [String]) throws(UsageError) -> Void

    /// The declared option, or nil for an operand.
    var option: OptionDeclaration? {
        if case .option(let option) = role { option } else { nil }
    }

    /// The declared operand, or nil for an option.
    var operand: OperandDeclaration? {
        if case .operand(let operand) = role { operand } else { nil }
    }

    /// How usage errors name it: `--output` or `<magazine>`.
    var displayName: String {
        switch role {
        case .operand(let operand): "<\(operand.name)>"
        case .option(let option): option.name
        }
    }
}

// MARK: Operands

extension Argument {
    /// A required operand.
    static func operand<V: ArgumentValue>(
        _ property: WritableKeyPath<Options, V>, _ name: String, _ kind: ValueKind = V.defaultKind, help: String
    ) -> Argument {
        binding(.operand(OperandDeclaration(name, kind, help: help)), property, reading: V.self) { texts throws(UsageError) in
            try read(V.self, texts.last, as: "<\(name)>")
        }
    }

    /// An operand that may be left out.
    static func operand<V: ArgumentValue>(
        _ property: WritableKeyPath<Options, V?>, _ name: String, _ kind: ValueKind = V.defaultKind, help: String
    ) -> Argument {
        binding(.operand(OperandDeclaration(name, kind, help: help, isRequired: false)), property, reading: V.self) {
            texts throws(UsageError) in
            try read(V.self, texts.last, as: "<\(name)>")
        }
    }

    /// The last operand, given any number of times (none too).
    static func operand<V: ArgumentValue>(
        _ property: WritableKeyPath<Options, [V]>, _ name: String, _ kind: ValueKind = V.defaultKind, help: String
    ) -> Argument {
        let operand = OperandDeclaration(name, kind, help: help, isRequired: false, isRepeatable: true)
        return binding(.operand(operand), property, reading: V.self) { texts throws(UsageError) in
            try readAll(V.self, texts, as: "<\(name)>")
        }
    }
}

// MARK: Options with a value

extension Argument {
    /// An option the command cannot run without.
    static func required<V: ArgumentValue>(
        _ property: WritableKeyPath<Options, V>, _ name: String, alias: String? = nil, _ kind: ValueKind = V.defaultKind,
        placeholder: String? = nil, help: String
    ) -> Argument {
        let option = OptionDeclaration(
            name: name, alias: alias, value: kind, placeholder: placeholder, isRequired: true, isRepeatable: false, help: help)
        return binding(.option(option), property, reading: V.self) { texts throws(UsageError) in
            try read(V.self, texts.last, as: name)
        }
    }

    /// An option that keeps the property's initial value when it is not given.
    static func value<V: ArgumentValue>(
        _ property: WritableKeyPath<Options, V>, _ name: String, alias: String? = nil, _ kind: ValueKind = V.defaultKind,
        placeholder: String? = nil, help: String
    ) -> Argument {
        let option = OptionDeclaration(
            name: name, alias: alias, value: kind, placeholder: placeholder, isRequired: false, isRepeatable: false, help: help)
        return binding(.option(option), property, reading: V.self) { texts throws(UsageError) in
            try read(V.self, texts.last, as: name)
        }
    }

    /// An option that is nil when it is not given.
    static func value<V: ArgumentValue>(
        _ property: WritableKeyPath<Options, V?>, _ name: String, alias: String? = nil, _ kind: ValueKind = V.defaultKind,
        placeholder: String? = nil, help: String
    ) -> Argument {
        let option = OptionDeclaration(
            name: name, alias: alias, value: kind, placeholder: placeholder, isRequired: false, isRepeatable: false, help: help)
        return binding(.option(option), property, reading: V.self) { texts throws(UsageError) in
            try read(V.self, texts.last, as: name)
        }
    }

    /// A repeatable option: every value, in command-line order.
    static func value<V: ArgumentValue>(
        _ property: WritableKeyPath<Options, [V]>, _ name: String, alias: String? = nil, _ kind: ValueKind = V.defaultKind,
        placeholder: String? = nil, help: String
    ) -> Argument {
        let option = OptionDeclaration(
            name: name, alias: alias, value: kind, placeholder: placeholder, isRequired: false, isRepeatable: true, help: help)
        return binding(.option(option), property, reading: V.self) { texts throws(UsageError) in
            try readAll(V.self, texts, as: name)
        }
    }
}

// MARK: Flags and groups

extension Argument {
    /// A flag that makes the property true.
    static func flag(_ property: WritableKeyPath<Options, Bool>, _ name: String, alias: String? = nil, help: String) -> Argument {
        flag(property, name, alias: alias, setting: true, help: help)
    }

    /// A flag that sets the property to `value`. Flags that set the same property exclude each
    /// other (`--verify` and `--no-verify`): giving two is a usage error.
    static func flag<V>(
        _ property: WritableKeyPath<Options, V>, _ name: String, alias: String? = nil, setting value: V, help: String
    ) -> Argument {
        let option = OptionDeclaration(
            name: name, alias: alias, value: nil, placeholder: nil, isRequired: false, isRepeatable: false, help: help)
        return Argument(
            role: .option(option), property: property, reads: { _ in true },
            write: { options, _ in options[keyPath: property] = value })
    }

    /// The arguments of `Group` (options several commands share), as arguments of these options
    /// whose `property` holds the group: swift-argument-parser's `@OptionGroup`.
    static func group<Group>(_ property: WritableKeyPath<Options, Group>, _ members: [Argument<Group>]) -> [Argument] {
        members.map { member in
            // Never nil: the group's value type is the members' root.
            let path = (property as PartialKeyPath<Options>).appending(path: member.property) ?? property
            let role: Role =
                switch member.role {
                case .operand(let operand): .operand(operand)
                case .option(let option): .option(option)
                }
            return Argument(role: role, property: path, reads: member.reads) { options, texts throws(UsageError) in
                try member.write(&options[keyPath: property], texts)
            }
        }
    }
}

// MARK: Reading texts

extension Argument {
    /// The argument declared as `role` whose texts, read as `V`s, `store` makes the value of
    /// `property`.
    private static func binding<V: ArgumentValue, Stored>(
        _ role: Role, _ property: WritableKeyPath<Options, Stored>, reading type: V.Type,
        _ store: @escaping ([String]) throws(UsageError) -> Stored
    ) -> Argument {
        Argument(
            role: role, property: property, reads: { V(argument: $0) != nil },
            write: { options, texts throws(UsageError) in options[keyPath: property] = try store(texts) })
    }

    /// `text` as a `V`; the error (for a declaration whose kind and type disagree) names `name`.
    private static func read<V: ArgumentValue>(_ type: V.Type, _ text: String?, as name: String) throws(UsageError) -> V {
        guard let text, let value = V(argument: text) else { throw UsageError("\(name) cannot be read from '\(text ?? "")'") }
        return value
    }

    private static func readAll<V: ArgumentValue>(_ type: V.Type, _ texts: [String], as name: String) throws(UsageError) -> [V] {
        var values: [V] = []
        for text in texts { values.append(try read(type, text, as: name)) }
        return values
    }
}
