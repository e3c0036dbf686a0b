import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat

/// `newsstand catalog`: writes the catalogs from every issue present in an output folder.
enum CatalogCommand: Command {
    static let name = "catalog"
    static let summary = "write issues.plist (and feeds) from every issue built into an output folder"
    static let help = """
        Usage: newsstand catalog <output> --magazine <magazine> [--feed shelf|atom]...

        Writes <output>/issues.plist from the issues present in <output> (each issue folder's
        build record), with the magazine's BaseURL. Use it after gathering issues built by
        separate jobs ('newsstand build --issue NAME' in a CI matrix): the result is identical
        to a single full build. <output> must not be the magazine, be inside it or contain it.

        Options:
          --magazine DIR   the magazine folder (for magazine.plist's BaseURL and Title)
          --feed FEED      also write shelf.json (shelf) or atom.xml (atom); repeatable
        """
    static let spec = OptionSpec(values: ["--magazine", "--feed"])

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        guard arguments.positionals.count == 1, let output = arguments.positionals.first else {
            throw UsageError("expected one <output> folder")
        }
        guard let magazinePath = arguments.value("--magazine") else { throw UsageError("missing --magazine <folder>") }
        if let refused = OutputFolderCheck.refusal(name, output: output, magazine: magazinePath, console: console) {
            return refused
        }
        var feeds: Set<Feed> = []
        for name in arguments.all("--feed") {
            guard let feed = Feed(rawValue: name) else { throw UsageError("unknown feed '\(name)'; expected shelf or atom") }
            feeds.insert(feed)
        }
        var diagnostics: [Diagnostic] = []
        let magazine = MagazineLoader.open(
            URL(fileURLWithPath: magazinePath), builtInSchema: try Templates.builtInSchema(), diagnostics: &diagnostics)
        let printer = DiagnosticPrinter(format: .text, console: console, magazinePath: magazinePath)
        let magazineErrors = diagnostics.filter { $0.severity == .error && $0.location?.file == "magazine.plist" }
        guard magazineErrors.isEmpty else {
            printer.print(magazineErrors)
            return ExitStatus.failure
        }
        let result = try CatalogWriter(magazine: magazine, output: URL(fileURLWithPath: output), feeds: feeds).write()
        printer.print(result.diagnostics)
        console.out("catalog: \((output as NSString).appendingPathComponent("issues.plist")) (\(result.entries) issue(s))")
        return ExitStatus.success
    }
}
