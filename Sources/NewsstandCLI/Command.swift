/// One `newsstand` subcommand: its declaration (name, summary, help; the operands and options
/// from its `Options`' arguments) and what it does with the options a command line gives.
protocol Command {
    /// The command's operands and options, parsed and checked.
    associatedtype Options: CommandOptions
    /// Made with `arguments: Options.arguments` (`NewsstandCommand.declarationProblems` checks it).
    static var declaration: CommandDeclaration { get }
    /// Runs the command; returns the exit status. Usage errors are thrown as `UsageError`.
    /// Synchronous, on the calling thread (async work goes through `runBlocking`).
    static func run(_ options: Options, in context: CommandContext) throws -> Int32
}

extension Command {
    /// Parses `words` (after the command's name) into `Options` and runs the command with them,
    /// or prints its help when they ask for it.
    static func parseAndRun(_ words: [String], in context: CommandContext) throws -> Int32 {
        guard let options = try Options.parse(words) else {
            context.console.out(HelpText.help(declaration))
            return ExitStatus.success
        }
        return try run(options, in: context)
    }

    /// What is wrong with the declaration (`DeclarationProblem`), nothing when it is right.
    static var declarationProblems: [DeclarationProblem] {
        DeclarationProblem.find(in: declaration, arguments: Options.arguments)
    }
}

/// What a command runs with: where it writes and the environment it reads (credentials,
/// `NEWSSTAND_TEMPLATES`, `NO_COLOR`), so that a command run in process sees what it is given.
public struct CommandContext: Sendable {
    public var console: Console
    public var environment: [String: String]

    public init(console: Console, environment: [String: String]) {
        self.console = console
        self.environment = environment
    }
}

/// Exit statuses, the same for every command.
enum ExitStatus {
    /// Everything worked (warnings allowed unless `--strict`).
    static let success: Int32 = 0
    /// The input has errors, or the work failed.
    static let failure: Int32 = 1
    /// The command line was wrong.
    static let usage: Int32 = 2
}
