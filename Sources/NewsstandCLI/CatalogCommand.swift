import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat

/// `newsstand catalog`: writes the catalogs from every issue present in an output folder.
enum CatalogCommand: Command {
    struct Options: CommandOptions {
        var output = ""
        var magazine = ""
        var feeds: [Feed] = []

        static var arguments: [Argument<Self>] {
            [
                .operand(\.output, "output", .folder, help: "the output folder holding the built issues"),
                .required(
                    \.magazine, "--magazine", .magazine, help: "the magazine folder (for magazine.plist's BaseURL and Title)"),
                .value(
                    \.feeds, "--feed", .choice(Self.catalogFeeds.map(\.rawValue)),
                    help:
                        "also write shelf.json (shelf), atom.xml (atom, whose summary and cover rules are checked on the built issues) or opds.json (opds, linking the EPUBs the built issues have; 'newsstand build --feed epub' writes those)"
                ),
            ]
        }

        /// The feeds that are a catalog file: not `epub`, which the build writes per issue (the
        /// usage, the completions and the parser offer only these).
        static let catalogFeeds = Feed.allCases.filter { $0.fileName != nil }
    }

    static let declaration = CommandDeclaration(
        name: "catalog", summary: "write issues.plist (and feeds) from every issue built into an output folder",
        arguments: Options.arguments,
        description: [
            "Writes <output>/issues.plist from the issues present in <output> (each issue folder's build record), with the magazine's BaseURL. Use it after gathering issues built by separate jobs ('newsstand build --issue NAME' in a CI matrix): the result is identical to a single full build. <output> must not be the magazine, be inside it or contain it."
        ],
        exitStatuses: [(0, "written"), (1, "magazine.plist errors or a failure"), (2, "usage error")],
        environment: [CommandDeclaration.templatesVariable, CommandDeclaration.sourceDateEpochVariable])

    static func run(_ options: Options, in context: CommandContext) throws -> Int32 {
        let console = context.console
        let output = options.output
        let magazinePath = options.magazine
        if let refused = OutputFolderCheck.refusal(declaration.name, output: output, magazine: magazinePath, console: console) {
            return refused
        }
        let feeds = Set(options.feeds)
        var diagnostics: [Diagnostic] = []
        let magazine = MagazineLoader.open(
            URL(fileURLWithPath: magazinePath), builtInSchema: try Templates.builtInSchema(environment: context.environment),
            diagnostics: &diagnostics)
        let printer = DiagnosticPrinter(format: .text, console: console, magazinePath: magazinePath)
        let magazineErrors = diagnostics.filter { $0.severity == .error && $0.location?.file == "magazine.plist" }
        guard magazineErrors.isEmpty else {
            printer.print(magazineErrors)
            return ExitStatus.failure
        }
        let result = try CatalogWriter(
            magazine: magazine, output: URL(fileURLWithPath: output), feeds: feeds,
            now: try SourceDateEpoch.now(context.environment),
            checksFeedRules: true
        ).write()
        printer.print(result.diagnostics)
        printer.flushWarnings()
        for warning in result.warnings { console.err("newsstand catalog: warning: \(warning)") }
        console.out("catalog: \((output as NSString).appendingPathComponent("issues.plist")) (\(result.entries) issue(s))")
        return ExitStatus.success
    }
}
