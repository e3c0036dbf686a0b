import Foundation
import NewsstandBuild
import NewsstandPreview
import NewsstandCore
import NewsstandFormat

/// `newsstand preview`: validates, then writes a static web preview of the magazine.
enum PreviewCommand: Command {
    static let declaration = CommandDeclaration(
        name: "preview", summary: "validate, then write a static web preview of every issue (HTML, no server needed)",
        operands: [OperandDeclaration("magazine", .magazine, help: "the magazine folder")],
        options: [
            .value(
                "--output", alias: "-o", .folder, isRequired: true,
                help: "the output folder (created if missing; not the magazine, not inside it, not containing it)"),
            .value(
                "--templates", .folder,
                help: "preview templates to use instead of the installed templates/preview (copy that folder to restyle the preview)"),
        ] + ValidationSession.options(issueHelp: "preview only this issue; the index lists only these"),
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

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> Int32 {
        let console = context.console
        let magazinePath = arguments.operands[0]
        let outputPath = arguments.value("--output") ?? ""
        if let refused = OutputFolderCheck.refusal(declaration.name, output: outputPath, magazine: magazinePath, console: console) {
            return refused
        }
        let templates =
            try arguments.value("--templates").map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? PreviewWriter.defaultTemplates(environment: context.environment)
        let session = ValidationSession(arguments, magazinePath: magazinePath, environment: context.environment)
        let outcome = try session.run(console: console, collectPlans: true)
        guard !outcome.failed else {
            if session.format != .json { console.err("newsstand preview: validation failed; nothing was written") }
            outcome.printer.finish(issues: outcome.issueCount, extra: ["preview": ["written": false]])
            return ExitStatus.failure
        }
        let writer = PreviewWriter(
            magazine: outcome.magazine, output: URL(fileURLWithPath: outputPath, isDirectory: true), templates: templates)
        let report: PreviewWriter.Report
        do {
            report = try writer.write(outcome.plans)
        } catch {
            console.err("newsstand preview: error: \(error)")
            outcome.printer.finish(issues: outcome.issueCount, extra: ["preview": ["written": false, "error": "\(error)"]])
            return ExitStatus.failure
        }
        let index = (outputPath as NSString).appendingPathComponent("index.html")
        if session.format == .json {
            outcome.printer.finish(
                issues: outcome.issueCount,
                extra: [
                    "preview": [
                        "written": true, "output": outputPath, "index": index, "issues": report.issues, "pages": report.pages,
                        "imagesCopied": report.imagesCopied, "bytesCopied": report.bytesCopied,
                    ]
                ])
        } else {
            outcome.printer.finish(issues: outcome.issueCount)
            console.out(
                "previewed \(report.issues.count) issue(s), \(report.pages) page(s); copied \(report.imagesCopied) image(s), "
                    + "\(ByteCount.format(report.bytesCopied))\nopen: \(index)")
        }
        return ExitStatus.success
    }
}
