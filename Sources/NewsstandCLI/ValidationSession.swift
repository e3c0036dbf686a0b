import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat

/// The validation that `validate`, `build` and `preview` share: the streaming run over issues
/// and the printing of what it finds.
struct ValidationSession {
    let magazinePath: String
    let selectedIssues: [String]
    let format: DiagnosticFormat
    let strict: Bool
    let ignored: Set<DiagnosticCode>
    /// The feeds asked for (`--feed` of validate and build), whose own rules are checked too.
    let feeds: Set<Feed>
    let environment: [String: String]

    init(_ options: ValidationOptions, feeds: [Feed] = [], magazinePath: String, environment: [String: String]) {
        self.magazinePath = magazinePath
        self.environment = environment
        selectedIssues = options.issues
        format = options.format
        strict = options.strict
        ignored = Set(options.ignored)
        self.feeds = Set(feeds)
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
        /// Issues whose validation was taken from their build record.
        var reused: [String] = []
        /// Build records that were not used, and why (already printed unless the format is JSON).
        var recordNotes: [String] = []
    }

    /// Validates every selected issue, printing errors as it goes and the warnings after them; the caller finishes
    /// the report with `printer.finish`. With `records` (an output folder of `build`), an issue
    /// unchanged since its last build reuses that validation (`RecordedValidation`); a record
    /// that cannot be trusted is reported as `command`'s warning and the issue validated.
    /// Records are checked on `width` threads.
    func run(
        console: Console, collectPlans: Bool, records: URL? = nil, index: BuildIndex? = nil, command: String = "validate",
        width: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws -> Outcome {
        let printer = DiagnosticPrinter(format: format, console: console, magazinePath: magazinePath)
        let validator = MagazineValidator(
            folder: URL(fileURLWithPath: magazinePath), builtInSchema: try Templates.builtInSchema(environment: environment),
            selectedIssues: selectedIssues)
        let opening = validator.open()
        printer.print(filter(opening.diagnostics))
        var plans: [IssuePlan] = []
        var reused: [String] = []
        var notes: [String] = []
        let note = { (text: String) in
            notes.append(text)
            if format != .json { console.err("newsstand \(command): warning: \(text)") }
        }
        let recordFolder = records.flatMap { Self.openRecords($0, note: note) }
        var otherVersions: Set<String> = []
        RecordedValidation.validate(
            issues: opening.issueNames, in: opening.magazine, feeds: feeds, records: recordFolder, index: index, width: width
        ) {
            name, result, outcome in
            switch outcome {
            case .reused: reused.append(name)
            case .untrusted(let error): note("issue '\(name)': \(error); the issue is validated again")
            case .otherVersion(let version): otherVersions.insert(version)
            case .noRecord, .changed: break
            }
            printer.print(filter(result.diagnostics))
            if collectPlans, let plan = result.plan { plans.append(plan) }
        }
        for version in otherVersions.sorted() {
            note(
                "build records made by newsstand \(SourceText.quoted(version)), not \(ToolVersion.current): their issues are validated again"
            )
        }
        printer.flushWarnings()
        let failed = printer.errors > 0 || (strict && printer.warnings > 0)
        return Outcome(
            magazine: opening.magazine, plans: plans, issueCount: opening.issueNames.count, failed: failed, printer: printer,
            reused: reused, recordNotes: notes)
    }

    /// The output folder whose records are read, or nil (with a note) when it cannot be opened;
    /// nil without a note when there is none yet (a first build).
    private static func openRecords(_ url: URL, note: (String) -> Void) -> OpenFolder? {
        do {
            return try OpenFolder.open(url)
        } catch .missing {
            return nil
        } catch {
            note("no build records are used: \(error.path): \(error.reason)")
            return nil
        }
    }

    private func filter(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.filter { !ignored.contains($0.code) }
    }
}
