import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat
import NewsstandPreview

/// `newsstand preview`: validates, then writes a static web preview of the magazine.
enum PreviewCommand: Command {
    struct Options: CommandOptions {
        var magazine = ""
        var output = ""
        /// Preview templates to use instead of the installed ones.
        var templates: String?
        var validation = ValidationOptions()

        static var arguments: [Argument<Self>] {
            [
                .operand(\.magazine, "magazine", .magazine, help: "the magazine folder"),
                .required(
                    \.output, "--output", alias: "-o", .folder,
                    help: "the output folder (created if missing; not the magazine, not inside it, not containing it)"),
                .value(
                    \.templates, "--templates", .folder,
                    help:
                        "preview templates to use instead of the installed templates/preview (copy that folder to restyle the preview)"
                ),
            ]
                + Argument.group(
                    \.validation, ValidationOptions.arguments(issueHelp: "preview only this issue; the index lists only these"))
        }
    }

    static let declaration = CommandDeclaration(
        name: "preview", summary: "validate, then write a static web preview of every issue (HTML, no server needed)",
        arguments: Options.arguments,
        description: [
            "Validates the magazine (as 'newsstand validate'); on any error prints the diagnostics, writes nothing and exits 1. Otherwise writes <output>/index.html, a shelf of the issues newest first, and per issue <output>/<name>/index.html, a reader showing every page by its class (left/right: articles, up/down: pages), with copies of the images it uses in both sizes. Links are relative: open index.html from disk or publish the folder beside the catalog as a web edition."
        ],
        exitStatuses: [
            (0, "written"), (1, "validation errors or a write failure"),
            CommandDeclaration.usageOrOverlap,
        ],
        environment: [
            ("NEWSSTAND_TEMPLATES", "the templates folder (page classes and templates/preview)"),
            CommandDeclaration.noColorVariable,
        ])

    static func run(_ options: Options, in context: CommandContext) throws -> Int32 {
        let console = context.console
        let outputPath = options.output
        let refused = OutputFolderCheck.refusal(
            declaration.name, output: outputPath, magazine: options.magazine, console: console)
        if let refused {
            return refused
        }
        let templates =
            try options.templates.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? PreviewWriter.defaultTemplates(environment: context.environment)
        let session = ValidationSession(options.validation, magazinePath: options.magazine, environment: context.environment)
        let outcome = try session.run(console: console, collectPlans: true)
        guard !outcome.failed else {
            if session.format != .json { console.err("newsstand preview: validation failed; nothing was written") }
            outcome.printer.finish(issues: outcome.issueCount, preview: PreviewJSON(written: false))
            return ExitStatus.failure
        }
        let writer = PreviewWriter(
            magazine: outcome.magazine, output: URL(fileURLWithPath: outputPath, isDirectory: true), templates: templates)
        let report: PreviewWriter.Report
        do {
            report = try writer.write(outcome.plans)
        } catch {
            console.err("newsstand preview: error: \(error)")
            outcome.printer.finish(issues: outcome.issueCount, preview: PreviewJSON(written: false, error: "\(error)"))
            return ExitStatus.failure
        }
        let index = (outputPath as NSString).appendingPathComponent("index.html")
        outcome.printer.finish(
            issues: outcome.issueCount,
            preview: PreviewJSON(
                written: true, output: outputPath, index: index, issues: report.issues, pages: report.pages,
                imagesCopied: report.imagesCopied, bytesCopied: report.bytesCopied))
        if session.format != .json {
            console.out(
                "previewed \(report.issues.count) issue(s), \(report.pages) page(s); copied \(report.imagesCopied) image(s), "
                    + "\(ByteCount.format(report.bytesCopied))\nopen: \(index)")
        }
        return ExitStatus.success
    }
}
