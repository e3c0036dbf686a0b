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

    /// The options both commands accept.
    static let valueOptions: Set<String> = ["--issue", "--format", "--ignore"]
    static let flagOptions: Set<String> = ["--strict"]

    init(_ arguments: ParsedArguments, magazinePath: String) throws(UsageError) {
        self.magazinePath = magazinePath
        selectedIssues = arguments.all("--issue")
        let formatName = arguments.value("--format") ?? "text"
        guard let format = DiagnosticFormat(rawValue: formatName) else {
            throw UsageError("unknown format '\(formatName)'; expected text, json or github")
        }
        self.format = format
        strict = arguments.has("--strict")
        let known = Set(DiagnosticCode.allCases.map(\.rawValue))
        for code in arguments.all("--ignore") where !known.contains(code) {
            throw UsageError("unknown diagnostic code '\(code)' for --ignore")
        }
        ignored = Set(arguments.all("--ignore"))
    }

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
            folder: URL(fileURLWithPath: magazinePath), builtInSchema: try Templates.builtInSchema(),
            selectedIssues: selectedIssues)
        let opening = validator.open()
        printer.print(filter(opening.diagnostics))
        var plans: [IssuePlan] = []
        for name in opening.issueNames {
            let result = IssueValidator.validate(issue: name, in: opening.magazine)
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
