import Foundation

/// `newsstand reference`: writes the Markdown reference (one page per command, the diagnostic
/// codes, the catalog's keys, the bundle index) into a folder, from the same declarations and
/// types the program runs on.
enum ReferenceCommand: Command {
    struct Options: CommandOptions {
        var folder = ""

        static var arguments: [Argument<Self>] {
            [.operand(\.folder, "folder", .folder, help: "where to write the pages (made if missing)")]
        }
    }

    static let declaration = CommandDeclaration(
        name: "reference", summary: "write the Markdown reference: every command, the diagnostic codes and the formats",
        arguments: Options.arguments,
        description: [
            "Writes README.md, commands/<command>.md for every command, diagnostic-codes.md, catalog-keys.md and bundle-index.md into the folder, each saying at its top that it is generated. Files of those names are replaced (each written whole under a temporary name, then renamed); nothing else in the folder is touched. 'make reference' writes docs/reference/ with it."
        ],
        exitStatuses: [(0, "written"), (1, "a page could not be written"), (2, "usage error")])

    static func run(_ options: Options, in context: CommandContext) throws -> Int32 {
        let folder = URL(fileURLWithPath: options.folder, isDirectory: true)
        let pages = ReferencePages.pages(NewsstandCommand.declarations)
        do {
            for page in pages {
                let file = folder.appendingPathComponent(page.path)
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(page.text.utf8).write(to: file, options: .atomic)
            }
        } catch {
            context.console.err(
                "newsstand reference: error: cannot write the reference into \(options.folder): \(error.localizedDescription)")
            return ExitStatus.failure
        }
        context.console.out("wrote \(pages.count) page(s) into \(options.folder)")
        return ExitStatus.success
    }
}
