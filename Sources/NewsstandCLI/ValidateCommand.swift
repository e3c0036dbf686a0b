import Foundation
import NewsstandBuild

/// `newsstand validate`: reports every problem in a magazine, with file, line and code.
enum ValidateCommand: Command {
    struct Options: CommandOptions {
        var magazine = ""
        var validation = ValidationOptions()
        var feeds: [Feed] = []
        /// A build's output folder whose records are reused (read only).
        var output: String?

        static var arguments: [Argument<Self>] {
            [.operand(\.magazine, "magazine", .magazine, help: "the magazine folder")]
                + Argument.group(\.validation, ValidationOptions.arguments(issueHelp: "validate only this issue")) + [
                    .value(
                        \.feeds, "--feed",
                        help:
                            "also check the rules of this feed (atom: the Newsstand feed's summary and cover rules, NS-601 and NS-602)"
                    ),
                    .value(
                        \.output, "--output", alias: "-o", .folder,
                        help:
                            "reuse the validation recorded by 'newsstand build' in this output folder for issues unchanged since (read only)"
                    ),
                ]
        }
    }

    static let declaration = CommandDeclaration(
        name: "validate", summary: "check a magazine and report every problem with file, line and code",
        arguments: Options.arguments,
        description: [
            "Checks magazine.plist, the page-class schemas and every issue (issue.plist, pages.plist, assets/) and reports every problem at once.",
            "With --output, an issue whose files, assets/ listing and page classes are unchanged since 'newsstand build' last built it into that folder reports that build's diagnostics again instead of being read; every other issue is validated in full. Nothing is written.",
        ],
        exitStatuses: [(0, "no errors"), (1, "errors (or warnings with --strict)"), (2, "usage error")],
        environment: [
            CommandDeclaration.templatesVariable,
            CommandDeclaration.noColorVariable,
        ])

    static func run(_ options: Options, in context: CommandContext) throws -> Int32 {
        let session = ValidationSession(
            options.validation, feeds: options.feeds, magazinePath: options.magazine, environment: context.environment)
        let outcome = try session.run(
            console: context.console, collectPlans: false,
            records: options.output.map { URL(fileURLWithPath: $0, isDirectory: true) })
        guard let output = options.output else {
            outcome.printer.finish(issues: outcome.issueCount)
            return outcome.failed ? ExitStatus.failure : ExitStatus.success
        }
        outcome.printer.finish(
            issues: outcome.issueCount,
            records: ValidationJSON.Records(output: output, reused: outcome.reused, warnings: outcome.recordNotes))
        if session.format != .json {
            context.console.out(
                "reused the recorded validation of \(outcome.reused.count) of \(outcome.issueCount) issue(s) (\(output))")
        }
        return outcome.failed ? ExitStatus.failure : ExitStatus.success
    }
}
