/// `newsstand manpage`: prints the manual page (troff), made from every command's declaration.
enum ManPageCommand: Command {
    static let declaration = CommandDeclaration(
        name: "manpage", summary: "print the manual page newsstand.1 (troff)", arguments: NoOptions.arguments,
        description: [
            "Prints newsstand.1: every command, operand, option, environment variable, exit status and diagnostic code, from the same declarations as --help. 'make install' installs it; to read it: newsstand manpage > newsstand.1 && man -l newsstand.1."
        ],
        exitStatuses: [(0, "printed"), (2, "usage error")])

    static func run(_ options: NoOptions, in context: CommandContext) throws -> Int32 {
        context.console.out(lastLineEnded(ManPage.page(NewsstandCommand.declarations)))
        return ExitStatus.success
    }
}
