import Foundation
import NewsstandPublish

/// The reference page of what every published file is served with (`CacheRules`): the table
/// publish stores with each object, and the nginx configuration made from it.
enum CacheHeadersReference {
    /// The page, with the default catalog lifetime.
    static func page() -> String {
        let rules = CacheRules()
        let kinds: [(CacheRules.PublishedKind, String, String)] = [
            (
                .catalog, "`issues.plist`, `shelf.json`, `atom.xml`, `opds.json`, a web edition's `index.html`",
                "small, and must be fresh: a CDN and a reader keep it `--catalog-max-age` seconds (default \(CacheRules.defaultCatalogMaxAge)), then revalidate (ETag / Last-Modified, 304 when unchanged); `--catalog-max-age 0` gives `no-cache`: every request revalidated at the origin"
            ),
            (
                .contentNamed, "bundles, indexes, covers, books and EPUBs with a content hash in the name (the default)",
                "a name never changes content"
            ),
            (
                .fixedName, "anything else: files built with `--fixed-names`, a web edition's pages",
                "the same URL may get new bytes"
            ),
            (
                .paidContentNamed, "a paid issue's content under `paid/`, content-named",
                "`private`: no shared cache keeps what is served only signed"
            ),
            (
                .paidFixedName, "a paid issue's content under `paid/`, fixed names",
                "`private`, and the same URL may get new bytes"
            ),
        ]
        let rows = kinds.map { kind, files, why in
            [Markdown.code(kind.rawValue), files, Markdown.code(rules.cacheControl(for: kind)), why]
        }
        let types =
            CacheRules.contentTypes.keys.sorted().map { [Markdown.code(".\($0)"), Markdown.code(CacheRules.contentTypes[$0]!)] }
            + [
                [Markdown.code("opds.json"), Markdown.code(CacheRules.contentType(of: "opds.json"))],
                [Markdown.code("atom.xml"), Markdown.code(CacheRules.contentType(of: "atom.xml"))],
            ]
        return [
            Markdown.generatedNotice(from: "`CacheRules` (Sources/NewsstandPublish/CacheRules.swift)"),
            "# Cache headers",
            "What every published file is served with. `newsstand publish` stores both headers with each object on an rclone remote that keeps them (S3 and compatibles, GCS, Azure), sends the type with each WebDAV `PUT`, and `--verify` checks what an rclone remote serves (publish stored them there; elsewhere the host's configuration sets them: the nginx lines below). See [Publishing](../publishing.md).",
            "## Cache-Control, by kind",
            "A file's kind follows from its path alone, as a CDN's or a server's path rules would decide: the catalogs at the root, `paid/…` for paid issues' content, and a content hash (`\(CacheRules.contentNamePatternForDocs)`) in the name.",
            Markdown.table(["kind", "files", "Cache-Control", "why"], rows),
            "## Content-Type, by name",
            Markdown.table(["name", "Content-Type"], types),
            "## nginx",
            "For a magazine served at `/magazine/` (the root of its `BaseURL`), inside its `server`; regular expressions are tried in order, `^~` keeps them off `paid/`, and a regular expression holding `{` is quoted:",
            "```nginx\n" + CacheRules.nginxTypes + "\n" + rules.nginxLocations(prefix: "/magazine/") + "\n```",
        ].joined(separator: "\n\n") + "\n"
    }
}
