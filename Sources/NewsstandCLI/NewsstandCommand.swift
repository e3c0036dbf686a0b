import Foundation
import NewsstandCore
import NewsstandBuild

/// The `newsstand` program: dispatches to a subcommand and turns errors into exit statuses.
public enum NewsstandCommand {
    static var commands: [any Command.Type] {
        [
            InitCommand.self, ValidateCommand.self, BuildCommand.self, CatalogCommand.self, PublishCommand.self,
            LibraryCommand.self, PreviewCommand.self,
        ]
    }

    static var help: String {
        let width = commands.map { $0.name.count }.max() ?? 0
        let lines = commands.map { "  \($0.name.padding(toLength: width + 2, withPad: " ", startingAt: 0))\($0.summary)" }
        return """
            newsstand: build, check and publish Newsstand magazines.

            Usage: newsstand <command> [options]

            Commands:
            \(lines.joined(separator: "\n"))

            Options:
              --help       show help (also after a command: newsstand validate --help)
              --version    print the version

            """
    }

    /// Runs the program with `arguments` (without the program name); returns the exit status.
    public static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
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
        guard let command = commands.first(where: { $0.name == first }) else {
            console.err("newsstand: error: unknown command '\(first)'\n")
            console.err(help)
            return ExitStatus.usage
        }
        do {
            let parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), spec: command.spec)
            if parsed.has("--help") {
                console.out(command.help)
                return ExitStatus.success
            }
            return try command.run(parsed, console: console)
        } catch let error as UsageError {
            console.err("newsstand \(command.name): error: \(Redacted.message(error.message))\n")
            console.err(command.help)
            return ExitStatus.usage
        } catch {
            // No secret reaches a terminal or a CI log, whatever an error quotes.
            console.err("newsstand \(command.name): error: \(Redacted.message(String(describing: error)))")
            return ExitStatus.failure
        }
    }
}
