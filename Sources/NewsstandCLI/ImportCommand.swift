import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandImport
import NewsstandProcess

/// `newsstand import`: a print PDF or a folder of page images into a new issue of a magazine.
enum ImportCommand: Command {
    struct Options: CommandOptions {
        var source = ""
        var magazine = ""
        var issue = ""
        var title = ""
        /// Midnight UTC of the day given.
        var date = Date(timeIntervalSince1970: 0)
        var width = ImportRequest.defaultWidth
        var articles: String?
        var jobs = min(ProcessInfo.processInfo.activeProcessorCount, ImportRequest.maximumJobs)
        /// MiB.
        var pageMemory = ImportRequest.defaultPageMemoryLimit >> 20
        var pageTimeout = ImportRequest.defaultPageTimeout
        var format = OutputFormat.text

        static var arguments: [Argument<Self>] {
            [
                .operand(\.source, "source", .file, help: "a PDF, or a folder of page images (PNG, JPEG, WebP, HEIF)"),
                .operand(\.magazine, "magazine", .magazine, help: "the magazine folder"),
                .required(
                    \.issue, "--issue", .text, placeholder: "NAME",
                    help: "the new issue's name (a folder in issues/ that must not exist)"),
                .required(\.title, "--title", .text, help: "the issue's Title"),
                .required(\.date, "--date", help: "the issue's Date (midnight UTC of that day)"),
                .value(
                    \.width, "--width",
                    .wholeNumber(
                        unit: "pixels",
                        range: Int64(ImportRequest.widthRange.lowerBound)...Int64(ImportRequest.widthRange.upperBound)),
                    placeholder: "PX",
                    help:
                        "the width of the @2x page images, even (default \(ImportRequest.defaultWidth), the retina iPad's portrait width)"
                ),
                .value(
                    \.articles, "--articles", .text, placeholder: "LIST",
                    help:
                        "group pages into articles: 1,2-5,6- (pages from 1; N- runs to the last page; every page exactly once, in order); default: one article per page"
                ),
                .value(
                    \.jobs, "--jobs", alias: "-j", .wholeNumber(unit: nil, range: 1...Int64(ImportRequest.maximumJobs)),
                    help: "pages rendered at once (default: the number of cores, at most \(ImportRequest.maximumJobs))"),
                .value(
                    \.pageMemory, "--page-memory",
                    .wholeNumber(
                        unit: "MiB",
                        range: Int64(ImportRequest.pageMemoryRange.lowerBound)...Int64(ImportRequest.pageMemoryRange.upperBound)),
                    placeholder: "MIB",
                    help:
                        "memory one page's renderer may use (default \(ImportRequest.defaultPageMemoryLimit >> 20)); the import uses at most --jobs times this"
                ),
                .value(
                    \.pageTimeout, "--page-timeout",
                    .wholeNumber(
                        unit: "seconds",
                        range: Int64(ImportRequest.pageTimeoutRange.lowerBound)...Int64(ImportRequest.pageTimeoutRange.upperBound)
                    ),
                    placeholder: "S",
                    help: "seconds one page, or opening the PDF, may take (default \(ImportRequest.defaultPageTimeout))"),
                .value(\.format, "--format", help: "text (default) or json (one document on standard output)"),
            ]
        }

        func validate() throws(UsageError) {
            guard width % 2 == 0 else {
                throw UsageError("\(Self.name(\.width)) must be even (the normal size is exactly half of it), got '\(width)'")
            }
            guard IssueName.isSafe(issue) else { throw UsageError(ImportError.invalidIssueName(issue).description) }
            guard !title.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw UsageError("\(Self.name(\.title)) must not be empty")
            }
        }
    }

    static let declaration = CommandDeclaration(
        name: "import", summary: "make a new issue from a PDF or a folder of page images",
        arguments: Options.arguments,
        description: [
            "Renders every page of the PDF (or scales every page image of the folder, in natural name order: page2 before page10) to --width pixels and writes them into a new issue, issues/<NAME>/, as @2x masters named <article>-<page>@2x.png (or .jpg for photographic pages), with pages.plist (one SimplePage per page) and issue.plist (Title, Date, Cover: cover@2x.png, the first page). Normal sizes (half width) are written too only when magazine.plist sets DeriveNormalSize to false; otherwise the build derives them.",
            "Everything is checked before the first page is rendered, and the issue is written into a hidden folder in issues/ that is renamed into place when complete: on any failure nothing is left in the magazine. An existing issue is never replaced.",
            "Each page is rendered in a process of its own (newsstand started again) with at most --page-memory MiB and --page-timeout seconds: a page that needs more is stopped and named, and the import fails. The whole import uses at most --jobs times --page-memory.",
        ],
        exitStatuses: [
            (0, "imported"),
            (
                1,
                "the issue exists, the source cannot be read (a damaged or encrypted PDF, a folder without images), a page needs more memory or time than it may have, or writing failed; nothing was written"
            ),
            (2, "usage error (also a bad --width, --date or --articles)"),
        ],
        environment: [CommandDeclaration.templatesVariable])

    static func run(_ options: Options, in context: CommandContext) throws -> Int32 {
        let console = context.console
        let json = options.format == .json
        let request = try makeRequest(options, environment: context.environment)
        let bar = ProgressBar(console: console, label: "importing")
        InterruptionNote.set(
            "newsstand import: interrupted: nothing was added to \(request.magazine.appendingPathComponent("issues").path)/; the pages rendered so far are in a hidden folder there (.newsstand-import-\(request.issueName)-…), which the next import into the magazine removes"
        )
        defer { InterruptionNote.clear() }
        let summary: ImportSummary
        do {
            summary = try IssueImporter(request).run { done, total in bar.update(done, of: total) }
            bar.clear()
        } catch {
            bar.clear()
            if case .articles(let problem) = error { throw UsageError(problem.description) }
            if json {
                JSONOutput.print(ImportJSON.failed(error.description), to: console)
            } else {
                console.err("newsstand import: error: \(Redacted.message(error.description)); nothing was written")
            }
            return ExitStatus.failure
        }
        if json {
            JSONOutput.print(ImportJSON(summary, issue: request.issueName, width: request.width), to: console)
            return ExitStatus.success
        }
        for note in summary.leftoversRemoved {
            console.err("newsstand import: note: removed '\(note)' in issues/, left by an import that did not finish")
        }
        for note in summary.notes { console.err("newsstand import: note: \(note)") }
        for warning in summary.warnings { console.err("newsstand import: warning: \(Redacted.message(warning))") }
        let sizes =
            summary.wroteNormalSizes
            ? "@2x and normal sizes (DeriveNormalSize is off)" : "@2x masters only (the build derives normal sizes)"
        console.out(
            "imported \(summary.pages) page(s) in \(summary.articles) article(s) into \(summary.issueFolder): "
                + "\(summary.pngPages) PNG, \(summary.jpegPages) JPEG, \(sizes), \(ByteCount.format(summary.imageBytes))")
        console.out("next: newsstand validate \(request.magazine.path)")
        return ExitStatus.success
    }

    /// The request, every option checked (usage errors before anything is opened).
    private static func makeRequest(_ options: Options, environment: [String: String]) throws -> ImportRequest {
        let articles: ArticleRanges?
        do {
            articles = try options.articles.map { text throws(ArticleListError) in try ArticleRanges(parsing: text) }
        } catch {
            throw UsageError(error.description)
        }
        return ImportRequest(
            source: URL(fileURLWithPath: options.source), magazine: URL(fileURLWithPath: options.magazine, isDirectory: true),
            issueName: options.issue, title: options.title, date: options.date,
            width: options.width, articles: articles, jobs: options.jobs,
            builtInSchema: try Templates.builtInSchema(environment: environment),
            pageMemoryLimit: options.pageMemory << 20, pageTimeout: options.pageTimeout)
    }
}
