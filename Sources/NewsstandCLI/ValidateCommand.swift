import Foundation
import NewsstandBuild

/// `newsstand validate`: reports every problem in a magazine, with file, line and code.
enum ValidateCommand: Command {
    static let declaration = CommandDeclaration(
        name: "validate", summary: "check a magazine and report every problem with file, line and code",
        operands: [OperandDeclaration("magazine", .magazine, help: "the magazine folder")],
        options: ValidationSession.options(issueHelp: "validate only this issue") + [
            .value(
                "--feed", .choice(Feed.allCases.map(\.rawValue)), isRepeatable: true,
                help: "also check the rules of this feed (atom: the Newsstand feed's summary and cover rules, NS-601 and NS-602)")
        ],
        description: [
            "Checks magazine.plist, the page-class schemas and every issue (issue.plist, pages.plist, assets/) and reports every problem at once."
        ],
        exitStatuses: [(0, "no errors"), (1, "errors (or warnings with --strict)"), (2, "usage error")],
        environment: [
            CommandDeclaration.templatesVariable,
            CommandDeclaration.noColorVariable,
        ])

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> Int32 {
        let session = ValidationSession(arguments, magazinePath: arguments.operands[0], environment: context.environment)
        let outcome = try session.run(console: context.console, collectPlans: false)
        outcome.printer.finish(issues: outcome.issueCount)
        return outcome.failed ? ExitStatus.failure : ExitStatus.success
    }
}
