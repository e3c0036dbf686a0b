import Foundation
import NewsstandCore
import NewsstandFormat

/// The pages of the Markdown reference (`newsstand reference`) that describe formats rather
/// than commands: the diagnostic codes (from `DiagnosticCode`), the catalog's keys (those
/// `CatalogEntry` writes) and the bundle index (`BundleIndex`, with an index it encodes).
enum FormatReference {
    /// Every diagnostic code with its severity and meaning, in the order of the codes.
    static func diagnosticCodes() -> String {
        let rows = DiagnosticCode.allCases.map { code in
            [Markdown.code(code.rawValue), code.defaultSeverity.rawValue, Markdown.text(code.summary)]
        }
        return [
            Markdown.generatedNotice(from: "`DiagnosticCode` (Sources/NewsstandFormat/DiagnosticCode.swift)"),
            "# Diagnostic codes",
            "`validate`, `build`, `preview` and `catalog --feed atom` report each problem with a stable code, a severity, the file and the line (see [Validating a magazine](../validating.md)). A code is never renumbered or reused. `--ignore CODE` drops a code from the report; `--strict` makes warnings fail.",
            Markdown.table(["code", "severity", "meaning"], rows),
        ].joined(separator: "\n\n") + "\n"
    }

    /// One key of `issues.plist`: its name as `CatalogEntry.Key` spells it, its property-list
    /// type and what it means.
    struct CatalogKey {
        var key: String
        var type: String
        var meaning: String
    }

    /// The catalog's keys, in the order the reference lists them (the seed's five first).
    /// `ReferenceTests` checks that they are exactly the keys a full `CatalogEntry` writes, each
    /// of the type given.
    static let catalogKeys: [CatalogKey] = {
        typealias K = CatalogEntry.Key
        return [
            CatalogKey(key: K.name, type: "string", meaning: "the issue's permanent key (its folder name)"),
            CatalogKey(key: K.title, type: "string", meaning: "from `issue.plist`"),
            CatalogKey(key: K.date, type: "date", meaning: "from `issue.plist`; orders the shelf"),
            CatalogKey(
                key: K.cover, type: "string",
                meaning: "`BaseURL` + `<name>/<cover file>`: the normal cover; the retina one follows by the `@2x` rule"),
            CatalogKey(
                key: K.content, type: "string",
                meaning:
                    "`BaseURL` + `<name>/<bundle>` (`a-1/a-1.3fa9c1e2.zip`; for a paid issue `paid/<name>/<bundle>`): the normal bundle; the retina one follows by the `@2x` rule"
            ),
            CatalogKey(key: K.summary, type: "string", meaning: "from `issue.plist`, when given"),
            CatalogKey(
                key: K.productID, type: "string",
                meaning: "from `issue.plist`, when given (an In-App Purchase product, for the app's purchase sheet)"),
            CatalogKey(
                key: K.access, type: "string",
                meaning:
                    "`paid` for a paid issue; absent for a free one (a reader takes an absent or `free` value as free, and any other string as paid)"
            ),
            CatalogKey(key: K.contentSize, type: "integer", meaning: "size in bytes of the normal bundle"),
            CatalogKey(key: K.contentSHA256, type: "string", meaning: "SHA-256 of the normal bundle, lowercase hex"),
            CatalogKey(key: K.retinaContentSize, type: "integer", meaning: "size in bytes of the `@2x` bundle"),
            CatalogKey(key: K.retinaContentSHA256, type: "string", meaning: "SHA-256 of the `@2x` bundle, lowercase hex"),
            CatalogKey(
                key: K.coverSHA256, type: "string",
                meaning: "SHA-256 of the normal cover (a reader refetches a cover when it changes)"),
            CatalogKey(key: K.retinaCoverSHA256, type: "string", meaning: "SHA-256 of the `@2x` cover"),
            CatalogKey(
                key: K.contentIndex, type: "string",
                meaning:
                    "`BaseURL` + `<name>/<index>` (`a-1/a-1.3fa9c1e2.index.json`; for a paid issue `paid/<name>/<index>`): the normal bundle's [index](bundle-index.md); the `@2x` bundle's follows by the `@2x` rule (`a-1.3fa9c1e2.index@2x.json`)"
            ),
            CatalogKey(key: K.contentIndexSize, type: "integer", meaning: "size in bytes of the normal bundle's index"),
            CatalogKey(
                key: K.contentIndexSHA256, type: "string", meaning: "SHA-256 of the normal bundle's index, lowercase hex"),
            CatalogKey(key: K.retinaContentIndexSize, type: "integer", meaning: "size in bytes of the `@2x` bundle's index"),
            CatalogKey(
                key: K.retinaContentIndexSHA256, type: "string", meaning: "SHA-256 of the `@2x` bundle's index, lowercase hex"),
        ]
    }()

    /// The keys of `issues.plist`.
    static func catalogKeysPage() -> String {
        [
            Markdown.generatedNotice(from: "the keys `CatalogEntry` writes (Sources/NewsstandCore/Catalog/CatalogEntry.swift)"),
            "# Catalog keys: `issues.plist`",
            "An XML property list: an array with one dict per issue, newest first (by `Date`, then `Name`). [Catalogs and feeds](../catalogs-and-feeds.md) says how `build` writes it and what a catalog from another tool needs.",
            Markdown.table(
                ["key", "type", "meaning"],
                catalogKeys.map { [Markdown.code($0.key), $0.type, $0.meaning.replacingOccurrences(of: "|", with: "\\|")] }),
            "The first five are the original Newsstand catalog's keys with their original meanings, so readers that know only those keep working; the rest are extra keys such readers ignore. An optional key of the wrong type is read as absent.",
        ].joined(separator: "\n\n") + "\n"
    }

    /// One member of a bundle index's JSON: its name(s) and what it means.
    struct IndexField {
        var names: [String]
        var meaning: String
    }

    /// The members of a bundle index, in the order `BundleIndex.encoded()` writes them.
    /// `ReferenceTests` checks that they are exactly the members of an index it encodes.
    static let indexFields: [IndexField] = [
        IndexField(names: ["format", "version"], meaning: "always `\"\(BundleIndex.format)\"` and `\(BundleIndex.version)`"),
        IndexField(
            names: ["bundle.size", "bundle.sha256"],
            meaning:
                "the bundle's size in bytes and SHA-256 (lowercase hex): the catalog's `ContentSize`/`ContentSHA256` (or the `Retina…` pair)"
        ),
        IndexField(
            names: ["entries"], meaning: "one object per file of the bundle, in the order of their local headers in the zip"),
        IndexField(names: ["name"], meaning: "the entry's path in the bundle"),
        IndexField(
            names: ["size", "sha256"],
            meaning: "the uncompressed size and the SHA-256 of the uncompressed bytes (hashed as the entry is packed)"),
        IndexField(
            names: ["crc32", "method"],
            meaning:
                "the CRC-32 (a decimal integer) and the method (`\"stored\"` or `\"deflated\"`) the zip records"),
        IndexField(names: ["header"], meaning: "offset of the entry's local file header in the bundle"),
        IndexField(
            names: ["data", "length"],
            meaning:
                "offset of the entry's data (right after the local header's name and extra field) and its length as stored (compressed for `deflated`)"
        ),
    ]

    /// The bundle index's format, with an index of two entries as `BundleIndex` encodes it.
    static func bundleIndexPage() -> String {
        let example = BundleIndex(
            bundleSize: 1234, bundleSHA256: String(repeating: "ab", count: 32),
            entries: [
                .init(
                    name: "issue.plist", size: 377, sha256: String(repeating: "c1", count: 32), crc32: 3_020_784_558,
                    method: .deflated, headerOffset: 0, dataOffset: 65, dataLength: 238),
                .init(
                    name: "1-0.png", size: 812, sha256: String(repeating: "d2", count: 32), crc32: 305_419_896,
                    method: .stored, headerOffset: 303, dataOffset: 340, dataLength: 812),
            ])
        let limits = BundleIndexLimits()
        return [
            Markdown.generatedNotice(from: "`BundleIndex` (Sources/NewsstandCore/Catalog/BundleIndex.swift)"),
            "# Bundle index",
            "Beside each bundle, `build` writes its index: one JSON file listing the bundle's entries and where each one's bytes are, so that a reader holding an older version of the issue can fetch only the entries that changed, with HTTP `Range` requests into the new bundle. Its name is the bundle's with `.index.json` for `.zip`, the `@2x` one by the `@2x` rule: `a-1.3fa9c1e2.zip` → `\(BundleIndex.fileName(forBundle: "a-1.3fa9c1e2.zip"))`, `a-1.3fa9c1e2@2x.zip` → `\(RetinaName.of(BundleIndex.fileName(forBundle: "a-1.3fa9c1e2.zip")))` (with `--fixed-names`, `a-1.index.json` and `a-1.index@2x.json`). The catalog gives its URL, size and SHA-256 (the `ContentIndex…` keys of [the catalog](catalog-keys.md)), so a reader can trust it; the Atom and shelf feeds and Baker books do not mention it.",
            "An index of two entries, as `BundleIndex.encoded()` writes it:",
            "```json\n" + String(decoding: example.encoded(), as: UTF8.self) + "```",
            Markdown.table(
                ["member", "meaning"],
                indexFields.map { [$0.names.map { Markdown.code($0) }.joined(separator: ", "), $0.meaning] }),
            "Every local header carries the CRC-32 and sizes itself (no data descriptor: the bundles are streamable), so the bytes `header` to `data + length` are a complete zip record. **Canonical form**: exactly the layout above, keys in that order, no spaces, one entry per line, integers only, strings escaped as JSON requires (quote, backslash and control characters) and otherwise UTF-8, a final newline; the same bundle always gives the same bytes (two builds of the same inputs write identical indexes).",
            "**What a reader accepts** (`BundleIndex.decode`): at most \(limits.maximumBytes >> 20) MiB and \(grouped(limits.maximumEntries)) entries (`BundleIndexLimits`); every name a safe relative path, none twice, and none both a file and another entry's folder (`d` beside `d/e.png`); hashes of 64 lowercase hex digits; offsets and sizes non-negative; each record inside the bundle and after the previous one (in order, not overlapping); between 30 and 30 + 2 × 65,535 bytes from `header` to `data`; a stored entry's `length` equal to its `size`. Anything else refuses the whole index, naming the entry. An index is about 200 bytes per entry: a bundle of more than about 80,000 files gets an index past \(limits.maximumBytes >> 20) MiB, which the build still writes and readers refuse (they then download the whole bundle, as without an index).",
        ].joined(separator: "\n\n") + "\n"
    }

    /// `number` with commas between thousands (`100,000`), whatever the locale.
    static func grouped(_ number: Int) -> String {
        var digits = String(number)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        return ([digits] + groups).joined(separator: ",")
    }
}
