import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat

/// The `newsstand` program: dispatches to a subcommand and turns errors into exit statuses.
/// `run` is the whole program: the executable calls it with the process's console and
/// environment, tests call it in process with a console that captures what it writes.
public enum NewsstandCommand {
    static var commands: [any Command.Type] {
        [
            InitCommand.self, ValidateCommand.self, BuildCommand.self, CatalogCommand.self, PublishCommand.self,
            SignCommand.self, ImportCommand.self, LibraryCommand.self, PreviewCommand.self, CompletionsCommand.self,
            ManPageCommand.self, ReferenceCommand.self,
        ]
    }

    /// Every command's declaration, in the order `--help` lists them.
    public static var declarations: [CommandDeclaration] { commands.map { $0.declaration } }

    /// What is wrong with any command's declaration: duplicate names and aliases, misplaced
    /// operands, kinds their properties cannot hold, … (`DeclarationProblem`). Empty when every
    /// declaration is right; a test requires it.
    public static var declarationProblems: [DeclarationProblem] { commands.flatMap { $0.declarationProblems } }

    static var help: String {
        let rows = declarations.map { ($0.name, $0.summary) }
        return """
            newsstand: build, check and publish Newsstand magazines.

            Usage: newsstand <command> [options]

            Commands:
            \(HelpText.table(rows))

            Options:
            \(HelpText.table([("--help", "show help (also after a command: newsstand validate --help)"), ("--version", "print the version")]))

            """
    }

    /// Runs the program with `arguments` (without the program name); returns the exit status.
    /// Synchronous: it runs on the calling thread (never call it from the cooperative pool).
    public static func run(
        _ arguments: [String], console: Console = .standard(),
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Int32 {
        guard let first = arguments.first else {
            console.err(help)
            return ExitStatus.usage
        }
        switch first {
        case "--help", "-h", "help":
            console.out(help)
            return ExitStatus.success
        case "--version":
            console.out("newsstand \(ToolVersion.current)")
            return ExitStatus.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.declaration.name == first }) else {
            let hint = Suggestion.hint(for: first, among: declarations.map(\.name))
            console.err("newsstand: error: unknown command '\(Redacted.message(first))'\(hint)\n")
            console.err(help)
            return ExitStatus.usage
        }
        let declaration = command.declaration
        do {
            let context = CommandContext(console: console, environment: environment)
            return try command.parseAndRun(Array(arguments.dropFirst()), in: context)
        } catch let error as UsageError {
            console.err("newsstand \(declaration.name): error: \(Redacted.message(error.message))\n")
            console.err(HelpText.usage(declaration))
            console.err("Run 'newsstand \(declaration.name) --help' for every option.")
            return ExitStatus.usage
        } catch {
            // No secret reaches a terminal or a CI log, whatever an error quotes.
            console.err("newsstand \(declaration.name): error: \(Redacted.message(String(describing: error)))")
            return ExitStatus.failure
        }
    }
}
