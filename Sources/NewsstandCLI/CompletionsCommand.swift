/// `newsstand completions`: prints the completion script for a shell, made from every command's
/// declaration.
enum CompletionsCommand: Command {
    /// The shells there is a script for.
    enum Shell: String, ChoiceArgument {
        case bash, zsh, fish
    }

    struct Options: CommandOptions {
        var shell = Shell.bash

        static var arguments: [Argument<Self>] { [.operand(\.shell, "shell", help: "bash, zsh or fish")] }
    }

    static let declaration = CommandDeclaration(
        name: "completions", summary: "print the shell completion script for bash, zsh or fish",
        arguments: Options.arguments,
        description: [
            "Prints a script that completes newsstand's commands, options, option values (--format text|json|github, --feed shelf|atom, diagnostic codes), folders where a folder is expected and issue names for --issue, read from the magazine named on the command line. 'make install' installs all three; to try one: source <(newsstand completions bash)."
        ],
        exitStatuses: [(0, "printed"), (2, "usage error")])

    static func run(_ options: Options, in context: CommandContext) throws -> Int32 {
        let commands = NewsstandCommand.declarations
        switch options.shell {
        case .bash: context.console.out(lastLineEnded(BashCompletion.script(commands)))
        case .zsh: context.console.out(lastLineEnded(ZshCompletion.script(commands)))
        case .fish: context.console.out(lastLineEnded(FishCompletion.script(commands)))
        }
        return ExitStatus.success
    }
}

/// `text` without its final newline (the console ends every line with one).
func lastLineEnded(_ text: String) -> String { text.hasSuffix("\n") ? String(text.dropLast()) : text }
