import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat

/// The validation that `validate` and `build` share: options, the streaming run over issues
/// and the printing of what it finds.
struct ValidationSession {
    let magazinePath: String
    let selectedIssues: [String]
    let format: DiagnosticFormat
    let strict: Bool
    let ignored: Set<String>
    /// The feeds asked for (`--feed`), whose own rules are checked too.
    let feeds: Set<Feed>

    /// The options of every command that validates (validate, build, preview), declared once.
    /// `issueHelp` says what `--issue` selects for the command.
    static func options(issueHelp: String) -> [OptionDeclaration] {
        [
            .value("--issue", .issueName, isRepeatable: true, help: issueHelp),
            .value(
                "--format", .choice(DiagnosticFormat.allCases.map(\.rawValue)),
                help: "text (default, like a compiler), json (one document) or github (Actions annotations)"),
            .flag("--strict", help: "treat warnings as errors"),
            .value("--ignore", .diagnosticCode, isRepeatable: true, help: "do not report this diagnostic code, e.g. NS-306"),
        ]
    }

    /// Values were checked against their kinds when the command line was parsed.
    init(_ arguments: ParsedArguments, magazinePath: String, environment: [String: String]) {
        self.magazinePath = magazinePath
        self.environment = environment
        selectedIssues = arguments.all("--issue")
        format = arguments.value("--format").flatMap(DiagnosticFormat.init(rawValue:)) ?? .text
        strict = arguments.has("--strict")
        ignored = Set(arguments.all("--ignore"))
        feeds = Set(arguments.all("--feed").compactMap(Feed.init(rawValue:)))
    }

    let environment: [String: String]

    /// What a validation run found.
    struct Outcome {
        var magazine: Magazine
        /// Plans of the issues without errors (when asked for).
        var plans: [IssuePlan]
        /// How many issues were validated.
        var issueCount: Int
        /// Errors were found (or warnings, with `--strict`).
        var failed: Bool
        /// The printer, to print more and finish the report.
        var printer: DiagnosticPrinter
    }

    /// Validates every selected issue, printing diagnostics as it goes; the caller finishes
    /// the report with `printer.finish`.
    func run(console: Console, collectPlans: Bool) throws -> Outcome {
        let printer = DiagnosticPrinter(format: format, console: console, magazinePath: magazinePath)
        let validator = MagazineValidator(
            folder: URL(fileURLWithPath: magazinePath), builtInSchema: try Templates.builtInSchema(environment: environment),
            selectedIssues: selectedIssues)
        let opening = validator.open()
        printer.print(filter(opening.diagnostics))
        var plans: [IssuePlan] = []
        for name in opening.issueNames {
            let result = IssueValidator.validate(issue: name, in: opening.magazine, feeds: feeds)
            printer.print(filter(result.diagnostics))
            if collectPlans, let plan = result.plan { plans.append(plan) }
        }
        let failed = printer.errors > 0 || (strict && printer.warnings > 0)
        return Outcome(
            magazine: opening.magazine, plans: plans, issueCount: opening.issueNames.count, failed: failed, printer: printer)
    }

    private func filter(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.filter { !ignored.contains($0.code.rawValue) }
    }
}
