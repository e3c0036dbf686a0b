import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat
import NewsstandPreview
import NewsstandProcess

/// `newsstand build`: validates, then writes the bundles, covers and catalogs.
enum BuildCommand: Command {
    struct Options: CommandOptions {
        var magazine = ""
        var output = ""
        var jobs = ProcessInfo.processInfo.activeProcessorCount
        var force = false
        /// Content-hash names (`--fixed-names` turns them off).
        var versioned = true
        var optimize = false
        var feeds: [Feed] = []
        var validation = ValidationOptions()

        static var arguments: [Argument<Self>] {
            [
                .operand(\.magazine, "magazine", .magazine, help: "the magazine folder"),
                .required(\.output, "--output", alias: "-o", .folder, help: "the output folder (created if missing)"),
                .value(
                    \.jobs, "--jobs", alias: "-j", .wholeNumber(unit: nil, range: 1...Int64(Int32.max)),
                    help: "bundles built at once (default: the number of cores)"),
                .flag(\.force, "--force", help: "rebuild issues even when their output is up to date"),
                .flag(
                    \.versioned, "--fixed-names", setting: false,
                    help:
                        "name bundles and covers without a content hash (a-1.zip, cover.png): a changed issue then reuses its URLs, so publish must replace served files in place (see docs/publishing.md); the default names a changed file anew"
                ),
                .flag(
                    \.versioned, "--versioned", setting: true,
                    help: "content-hash names (the default; kept for scripts that pass it)"),
                .flag(
                    \.optimize, "--optimize",
                    help:
                        "make every PNG and JPEG in the bundles smaller without changing a pixel (libvips/libjpeg; cached in the output's records, so a rebuild does not redo it)"
                ),
                .value(
                    \.feeds, "--feed",
                    help:
                        "also write shelf.json and a Baker book per issue (shelf: Baker's format, <name>.hpub), atom.xml (atom: a Newsstand Atom feed, whose summary and cover rules are checked), opds.json (opds: an OPDS 2.0 catalog) or a fixed-layout EPUB 3 per issue (epub: <name>.epub); repeat for several"
                ),
            ]
                + Argument.group(
                    \.validation,
                    ValidationOptions.arguments(
                        issueHelp: "build only this issue; the catalog still lists every issue already built in the output folder"
                    ))
        }
    }

    static let declaration = CommandDeclaration(
        name: "build", summary: "validate, then build the normal and @2x bundles and the catalogs",
        arguments: Options.arguments,
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

    static func run(_ options: Options, in context: CommandContext) throws -> Int32 {
        let console = context.console
        var build = buildOptions(options)
        build.now = try SourceDateEpoch.now(context.environment)
        let refused = OutputFolderCheck.refusal(
            declaration.name, output: options.output, magazine: options.magazine, console: console)
        if let refused {
            return refused
        }
        let session = ValidationSession(
            options.validation, feeds: options.feeds, magazinePath: options.magazine, environment: context.environment)
        let started = Date()
        // --force trusts no record: every issue is validated and built again, and the build
        // index starts empty (it is written again from what this build reads).
        let index: BuildIndex
        var indexNotes: [String] = []
        if build.force {
            index = .empty()
        } else {
            let loaded = BuildIndex.load(output: build.output)
            index = loaded.index
            if let problem = loaded.problem {
                indexNotes.append(problem)
                if session.format != .json { console.err("newsstand build: warning: \(problem)") }
            }
        }
        build.index = index
        let outcome = try session.run(
            console: console, collectPlans: true, records: build.force ? nil : build.output, index: index,
            command: declaration.name, width: build.jobs)
        guard !outcome.failed else {
            if session.format != .json { console.err("newsstand build: validation failed; nothing was written") }
            outcome.printer.finish(issues: outcome.issueCount, build: .validationFailed)
            return ExitStatus.failure
        }
        if build.feeds.contains(.shelf) {
            // The Baker books' pages are the preview's, from the installed templates.
            build.bookRenderer = try BookPages(
                schema: outcome.magazine.schema, templates: PreviewWriter.defaultTemplates(environment: context.environment))
        }
        let progress = ProgressBar(console: console, label: "building")
        InterruptionNote.set(
            "newsstand build: interrupted: what was finished is kept in \(options.output): the issues built, with their records, and the images made, in each issue's image cache; nothing is left half-written under its own name. Run the same command again: it makes only what is missing, and removes the temporary files of this run"
        )
        defer { InterruptionNote.clear() }
        let report: BuildReport
        let warnings = WarningLines()
        do {
            let format = session.format
            report = try MagazineBuilder(magazine: outcome.magazine, options: build)
                .build(
                    outcome.plans, progress: { done, total in progress.update(done, of: total) },
                    imageProgress: { stage, done, total in progress.update(done, of: total, label: stage) },
                    warning: { warning in
                        warnings.lines.append(warning)
                        progress.clear()
                        if format != .json { console.err("newsstand build: warning: \(warning)") }
                    })
            progress.clear()
        } catch {
            progress.clear()
            console.err("newsstand build: error: \(error)")
            outcome.printer.finish(issues: outcome.issueCount, build: .failed(error, warnings: warnings.lines))
            return ExitStatus.failure
        }
        outcome.printer.print(report.feedDiagnostics)
        let seconds = Date().timeIntervalSince(started)
        outcome.printer.finish(
            issues: outcome.issueCount,
            build: BuildJSON(
                report, output: options.output, seconds: seconds, validationReused: outcome.reused,
                recordWarnings: indexNotes + outcome.recordNotes))
        if session.format != .json {
            console.out(text(report, output: options.output, seconds: seconds, reused: outcome.reused.count))
        }
        return ExitStatus.success
    }

    /// What the build library needs of the options.
    private static func buildOptions(_ options: Options) -> BuildOptions {
        // Content-versioned names by default: a changed bundle gets a new URL, so a publish never
        // overwrites a file the served catalog refers to, and CDNs may cache every bundle forever.
        BuildOptions(
            output: URL(fileURLWithPath: options.output, isDirectory: true), jobs: options.jobs, force: options.force,
            feeds: Set(options.feeds), removesStaleIssues: options.validation.issues.isEmpty, versioned: options.versioned,
            optimize: options.optimize)
    }

    private static func text(_ report: BuildReport, output: String, seconds: Double, reused: Int) -> String {
        var parts = [
            "built \(report.built.count) issue(s): \(report.bundlesWritten) bundles, \(ByteCount.format(report.bytesWritten))"
        ]
        if !report.upToDate.isEmpty { parts.append("\(report.upToDate.count) up to date") }
        if reused > 0 { parts.append("\(reused) validation(s) reused from build records") }
        let images = report.images
        if images.derived + images.derivedFromCache > 0 {
            parts.append("derived \(images.derived) normal-size image(s), \(images.derivedFromCache) from the cache")
        }
        if images.optimized + images.optimizedFromCache > 0 {
            parts.append(
                "optimised \(images.optimized) image(s), \(images.optimizedFromCache) from the cache, saving \(ByteCount.format(images.bytesSaved)) (\(images.bytesSaved) bytes)"
            )
        }
        if report.epubsWritten > 0 {
            var epub = "wrote \(report.epubsWritten) EPUB(s)"
            let degraded = report.epubPagesAsBaseImage
            if !degraded.isEmpty {
                let classes = degraded.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
                epub += ", \(degraded.values.reduce(0, +)) page(s) shown as their base image only (\(classes))"
            }
            parts.append(epub)
        }
        if !report.removed.isEmpty { parts.append("removed \(report.removed.joined(separator: ", "))") }
        parts.append(String(format: "%.2f s", seconds))
        let catalog = (output as NSString).appendingPathComponent("issues.plist")
        return parts.joined(separator: "; ") + "\ncatalog: \(catalog) (\(report.catalogEntries) issue(s))"
    }
}

/// The warnings of a build, as they arrive (on the calling thread).
private final class WarningLines {
    var lines: [String] = []
}
