import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat
import NewsstandPreview

/// `newsstand build`: validates, then writes the bundles, covers and catalogs.
enum BuildCommand: Command {
    static let declaration = CommandDeclaration(
        name: "build", summary: "validate, then build the normal and @2x bundles and the catalogs",
        operands: [OperandDeclaration("magazine", .magazine, help: "the magazine folder")],
        options: [
            .value("--output", alias: "-o", .folder, isRequired: true, help: "the output folder (created if missing)"),
            .value("--jobs", alias: "-j", .wholeNumber(unit: nil, range: 1...Int64(Int32.max)), help: "bundles built at once (default: the number of cores)"),
            .flag("--force", help: "rebuild issues even when their output is up to date"),
            .flag(
                "--fixed-names",
                help: "name bundles and covers without a content hash (a-1.zip, cover.png): a changed issue then reuses its URLs, so publish must replace served files in place (see the README); the default names a changed file anew"),
            .flag("--versioned", help: "content-hash names (the default; kept for scripts that pass it)"),
            .value(
                "--feed", .choice(Feed.allCases.map(\.rawValue)), isRepeatable: true,
                help: "also write shelf.json and a Baker book per issue (shelf: Baker's format, <name>.hpub) or atom.xml (atom: a Newsstand Atom feed, whose summary and cover rules are checked)"),
        ]
            + ValidationSession.options(
                issueHelp: "build only this issue; the catalog still lists every issue already built in the output folder"),
        description: [
            "Validates the magazine (as 'newsstand validate', reusing the validation recorded in the output folder for issues unchanged since their last build; --force validates every issue); on any error prints the diagnostics, writes nothing and exits 1. Otherwise writes, per issue, <output>/<name>/ with the normal and @2x bundles and the cover in both sizes, named by their content (a-1.3fa9c1e2.zip, a-1.3fa9c1e2@2x.zip, cover.28580f68.png), then <output>/issues.plist listing every issue in the output folder. Issues whose sources did not change since the last build are not rebuilt.",
            "The output folder must not be the magazine, be inside it or contain it (exit 2). In an issue's output folder, only files an earlier build recorded as its own are removed; anything else is left, with a warning.",
        ],
        exitStatuses: [
            (0, "built"), (1, "validation errors or a build failure"),
            CommandDeclaration.usageOrOverlap,
        ],
        environment: [
            CommandDeclaration.templatesVariable,
            CommandDeclaration.noColorVariable,
            CommandDeclaration.sourceDateEpochVariable,
        ])

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> Int32 {
        let console = context.console
        let magazinePath = arguments.operands[0]
        let outputPath = arguments.value("--output") ?? ""
        var options = try buildOptions(arguments, output: outputPath)
        options.now = try SourceDateEpoch.now(context.environment)
        if let refused = OutputFolderCheck.refusal(declaration.name, output: outputPath, magazine: magazinePath, console: console) {
            return refused
        }
        let session = ValidationSession(arguments, magazinePath: magazinePath, environment: context.environment)
        let started = Date()
        // --force trusts no record: every issue is validated and built again, and the build
        // index starts empty (it is written again from what this build reads).
        let index: BuildIndex
        var indexNotes: [String] = []
        if options.force {
            index = .empty()
        } else {
            let loaded = BuildIndex.load(output: options.output)
            index = loaded.index
            if let problem = loaded.problem {
                indexNotes.append(problem)
                if session.format != .json { console.err("newsstand build: warning: \(problem)") }
            }
        }
        options.index = index
        let outcome = try session.run(
            console: console, collectPlans: true, records: options.force ? nil : options.output, index: index,
            command: declaration.name, width: options.jobs)
        guard !outcome.failed else {
            if session.format != .json { console.err("newsstand build: validation failed; nothing was written") }
            outcome.printer.finish(issues: outcome.issueCount, extra: ["build": ["written": false]])
            return ExitStatus.failure
        }
        if options.feeds.contains(.shelf) {
            // The Baker books' pages are the preview's, from the installed templates.
            options.bookRenderer = try BookPages(
                schema: outcome.magazine.schema, templates: PreviewWriter.defaultTemplates(environment: context.environment))
        }
        let progress = ProgressBar(console: console, label: "building")
        let report: BuildReport
        let warnings = WarningLines()
        do {
            let format = session.format
            report = try MagazineBuilder(magazine: outcome.magazine, options: options)
                .build(outcome.plans, progress: { done, total in progress.update(done, of: total) }) { warning in
                    warnings.lines.append(warning)
                    progress.clear()
                    if format != .json { console.err("newsstand build: warning: \(warning)") }
                }
            progress.clear()
        } catch {
            progress.clear()
            console.err("newsstand build: error: \(error)")
            outcome.printer.finish(
                issues: outcome.issueCount,
                extra: ["build": ["written": false, "error": "\(error)", "warnings": warnings.lines]])
            return ExitStatus.failure
        }
        outcome.printer.print(report.feedDiagnostics)
        let seconds = Date().timeIntervalSince(started)
        if session.format == .json {
            var build = json(report, output: outputPath, seconds: seconds)
            build["validationReused"] = outcome.reused
            build["recordWarnings"] = indexNotes + outcome.recordNotes
            outcome.printer.finish(issues: outcome.issueCount, extra: ["build": build])
        } else {
            outcome.printer.finish(issues: outcome.issueCount)
            console.out(text(report, output: outputPath, seconds: seconds, reused: outcome.reused.count))
        }
        return ExitStatus.success
    }

    private static func buildOptions(_ arguments: ParsedArguments, output: String) throws(UsageError) -> BuildOptions {
        let jobs = arguments.number("--jobs").map { Int($0) } ?? ProcessInfo.processInfo.activeProcessorCount
        let feeds = Set(arguments.all("--feed").compactMap(Feed.init(rawValue:)))
        if arguments.has("--versioned") && arguments.has("--fixed-names") {
            throw UsageError("--versioned and --fixed-names contradict each other")
        }
        // Content-versioned names by default: a changed bundle gets a new URL, so a publish never
        // overwrites a file the served catalog refers to, and CDNs may cache every bundle forever.
        return BuildOptions(
            output: URL(fileURLWithPath: output, isDirectory: true), jobs: jobs, force: arguments.has("--force"),
            feeds: feeds, removesStaleIssues: arguments.all("--issue").isEmpty, versioned: !arguments.has("--fixed-names"))
    }

    private static func text(_ report: BuildReport, output: String, seconds: Double, reused: Int) -> String {
        var parts = [
            "built \(report.built.count) issue(s): \(report.bundlesWritten) bundles, \(ByteCount.format(report.bytesWritten))"
        ]
        if !report.upToDate.isEmpty { parts.append("\(report.upToDate.count) up to date") }
        if reused > 0 { parts.append("\(reused) validation(s) reused from build records") }
        if !report.removed.isEmpty { parts.append("removed \(report.removed.joined(separator: ", "))") }
        parts.append(String(format: "%.2f s", seconds))
        let catalog = (output as NSString).appendingPathComponent("issues.plist")
        return parts.joined(separator: "; ") + "\ncatalog: \(catalog) (\(report.catalogEntries) issue(s))"
    }

    private static func json(_ report: BuildReport, output: String, seconds: Double) -> [String: Any] {
        [
            "written": true, "output": output, "built": report.built, "upToDate": report.upToDate,
            "removed": report.removed, "bundles": report.bundlesWritten, "bytes": report.bytesWritten,
            "catalogEntries": report.catalogEntries, "seconds": (seconds * 1000).rounded() / 1000,
            "warnings": report.warnings,
        ]
    }
}

/// The warnings of a build, as they arrive (on the calling thread).
private final class WarningLines {
    var lines: [String] = []
}
