/// One `newsstand` subcommand: its declaration (name, summary, operands, options, help) and
/// what it does with a command line parsed against it.
protocol Command {
    static var declaration: CommandDeclaration { get }
    /// Runs the command; returns the exit status. Usage errors are thrown as `UsageError`.
    /// Synchronous, on the calling thread (async work goes through `runBlocking`).
    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> Int32
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
