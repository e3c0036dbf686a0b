import Foundation

/// `newsstand validate`: reports every problem in a magazine, with file, line and code.
enum ValidateCommand: Command {
    static let name = "validate"
    static let summary = "check a magazine and report every problem with file, line and code"
    static let help = """
        Usage: newsstand validate <magazine> [--issue NAME]... [--format text|json|github] [--strict] [--ignore CODE]...

        Checks magazine.plist, the page-class schemas and every issue (issue.plist, pages.plist,
        assets/) and reports every problem at once.

        Options:
          --issue NAME      validate only this issue (repeatable)
          --format FORMAT   text (default), json (one document) or github (Actions annotations)
          --strict          treat warnings as errors
          --ignore CODE     do not report this diagnostic code, e.g. NS-306 (repeatable)

        Exit status: 0 no errors, 1 errors (or warnings with --strict), 2 usage error.
        """
    static let spec = OptionSpec(flags: ValidationSession.flagOptions, values: ValidationSession.valueOptions)

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard arguments.positionals.count == 1, let magazine = arguments.positionals.first else {
            throw UsageError(arguments.positionals.isEmpty ? "missing <magazine> folder" : "expected one <magazine> folder")
        }
        let session = try ValidationSession(arguments, magazinePath: magazine)
        let outcome = try session.run(console: console, collectPlans: false)
        outcome.printer.finish(issues: outcome.issueCount)
        return outcome.failed ? ExitStatus.failure : ExitStatus.success
    }
}
