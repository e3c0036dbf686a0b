import Foundation
import NewsstandCore

/// The table as an nginx configuration: what a host that serves the published folder itself
/// (nginx, and a CDN in front of it that honours `Cache-Control`) needs to serve every file
/// as publish stores it on an object store. Written into the reference
/// (docs/reference/cache-headers.md) from the table, so the two cannot drift apart.
extension CacheRules {
    /// nginx `types` for every extension `contentTypes` knows.
    public static var nginxTypes: String {
        let grouped = Dictionary(grouping: contentTypes.keys.sorted(), by: { contentTypes[$0]! })
        let lines = grouped.keys.sorted().map { type in
            // nginx's `types` takes the media type without parameters; charset is its own directive.
            "    \(type.split(separator: ";")[0]) \(grouped[type]!.joined(separator: " "));"
        }
        return (["types {"] + lines + ["}"]).joined(separator: "\n")
    }

    /// The `location` blocks for a magazine served at `prefix` (`/magazine/`): hidden names
    /// refused (the first regular expression), paid issues' content (`^~`, with a
    /// `secure_link` check where the comments stand), content-named files, the catalogs
    /// (exact names, which nginx tries first), everything else.
    public func nginxLocations(prefix: String) -> String {
        let quoted = { (value: String) in "\"\(value)\"" }
        let catalogs = Self.catalogPaths.sorted().map { path in
            let type = Self.contentType(of: path)
            // nginx's types give opds.json and atom.xml the type of their extension: set theirs.
            let own =
                Self.contentTypes[String(path.split(separator: ".").last ?? "")] == type ? "" : "types { } default_type \(type); "
            return "location = \(prefix)\(path) { \(own)add_header Cache-Control \(quoted(cacheControl(for: .catalog))); }"
        }
        return
            ([
                #"location ~ "(^|/)\." { return 404; }"#,
                """
                location ^~ \(prefix)\(IssueAccess.paidFolder)/ {
                    # the secure_link check of "Hosting paid issues" (docs/publishing.md) goes here
                    add_header Cache-Control \(quoted(cacheControl(for: .paidFixedName)));
                    location ~ "\(Self.contentNamePattern)" {
                        # the same check again: nginx's if and return are not inherited by a nested location
                        add_header Cache-Control \(quoted(cacheControl(for: .paidContentNamed)));
                    }
                }
                """,
                "location ~ \"\(Self.contentNamePattern)\" { add_header Cache-Control \(quoted(cacheControl(for: .contentNamed))); }",
            ] + catalogs + ["location \(prefix) { add_header Cache-Control \(quoted(cacheControl(for: .fixedName))); }"])
            .joined(separator: "\n")
    }
}
