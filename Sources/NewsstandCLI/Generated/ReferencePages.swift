/// The Markdown reference `newsstand reference` writes (`make reference` into
/// `docs/reference/`): one page per command from its declaration, the diagnostic codes, the
/// catalog's keys and the bundle index, and an index of them. Every page is made from the
/// code, so what a command accepts is what its page says; `ReferenceTests` fails when a
/// committed page is not what this writes now.
enum ReferencePages {
    /// Every page: its path inside the reference folder and its text.
    static func pages(_ commands: [CommandDeclaration]) -> [(path: String, text: String)] {
        var pages = [(path: "README.md", text: index(commands))]
        pages += commands.map { (path: CommandReference.path($0), text: CommandReference.page($0)) }
        pages += [
            (path: "diagnostic-codes.md", text: FormatReference.diagnosticCodes()),
            (path: "catalog-keys.md", text: FormatReference.catalogKeysPage()),
            (path: "bundle-index.md", text: FormatReference.bundleIndexPage()),
            (path: "cache-headers.md", text: CacheHeadersReference.page()),
        ]
        return pages
    }

    private static func index(_ commands: [CommandDeclaration]) -> String {
        let rows = commands.map { command in
            ["[`newsstand \(command.name)`](\(CommandReference.path(command)))", Markdown.text(command.summary)]
        }
        return [
            Markdown.generatedNotice(from: "the commands' declarations and the format types"),
            "# Reference",
            "Made by `newsstand reference` from the code itself: each command's page from the declaration that also makes its `--help`, the man page and the shell completions; the formats from the types that read and write them. The [guides](../../README.md#documentation) say how to use them.",
            "## Commands",
            Markdown.table(["command", "what it does"], rows),
            "## Formats",
            """
            - [Diagnostic codes](diagnostic-codes.md): every code `validate` reports, with its severity
            - [Catalog keys](catalog-keys.md): the keys of `issues.plist`
            - [Bundle index](bundle-index.md): the index beside each bundle, for updates by ranges
            - [Cache headers](cache-headers.md): the Cache-Control and Content-Type of every published file, and the nginx lines for them
            """,
        ].joined(separator: "\n\n") + "\n"
    }
}
