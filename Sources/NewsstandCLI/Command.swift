/// One `newsstand` subcommand: its name, help text, options and what it does.
protocol Command {
    /// The word after `newsstand`.
    static var name: String { get }
    /// One line for `newsstand --help`.
    static var summary: String { get }
    /// The full `--help` text, starting with the usage line.
    static var help: String { get }
    /// The options it accepts.
    static var spec: OptionSpec { get }
    /// Runs the command; returns the exit status. Usage errors are thrown as `UsageError`.
    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32
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
