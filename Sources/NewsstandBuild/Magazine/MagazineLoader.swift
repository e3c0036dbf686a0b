import Foundation
import NewsstandCore
import NewsstandFormat

/// Opens a magazine folder: reads `magazine.plist`, the built-in and the magazine's page-class
/// schemas and the list of issues, reporting every problem found on the way.
public enum MagazineLoader {
    /// Opens the magazine at `folder`. Problems go to `diagnostics`; the result is usable for
    /// validating issues even when `magazine.plist` has errors.
    public static func open(
        _ folder: URL, builtInSchema: URL, diagnostics: inout [Diagnostic]
    ) -> Magazine {
        guard FileStatus.kind(of: folder) == .folder else {
            diagnostics.append(
                Diagnostic(.fileMissing, "magazine folder '\(folder.path)' does not exist or is not a folder", at: nil))
            return Magazine(
                folder: folder, schema: PageClassSchema(layers: [], diagnostics: &diagnostics), issueNames: [],
                recordKey: RecordKey.make(magazine: folder, builtInSchema: builtInSchema))
        }
        // Before the schemas are read: see `RecordKey.make`.
        let recordKey = RecordKey.make(magazine: folder, builtInSchema: builtInSchema)
        let (title, baseURL, publisher, previewURL, derives, language) = readSettings(folder, diagnostics: &diagnostics)
        var layers = [PageClassSchema.classes(in: builtInSchema, displayPath: builtInSchema.path, diagnostics: &diagnostics)]
        let own = folder.appendingPathComponent("page-classes.plist")
        if FileStatus.kind(of: own) != nil {
            layers.append(PageClassSchema.classes(in: own, displayPath: "page-classes.plist", diagnostics: &diagnostics))
        }
        let schema = PageClassSchema(layers: layers, diagnostics: &diagnostics)
        let names = issueNames(folder, diagnostics: &diagnostics)
        var magazine = Magazine(
            folder: folder, title: title, baseURL: baseURL, publisher: publisher, previewURL: previewURL, schema: schema,
            issueNames: names, recordKey: recordKey)
        magazine.derivesNormalSize = derives
        magazine.language = language
        return magazine
    }

    private static func readSettings(
        _ folder: URL, diagnostics: inout [Diagnostic]
    ) -> (String?, URL?, String?, URL?, Bool, String?) {
        let file = "magazine.plist"
        let root: PlistNode
        do {
            root = try PlistReader.read(contentsOf: folder.appendingPathComponent(file), displayPath: file)
        } catch {
            diagnostics += error.diagnostics
            return (nil, nil, nil, nil, true, nil)
        }
        guard root.entries != nil else {
            diagnostics.append(
                Diagnostic(
                    .magazineNotDict, "magazine.plist must be a dict, found \(root.kindName)",
                    at: .init(file: file, line: root.line)))
            return (nil, nil, nil, nil, true, nil)
        }
        var title: String?
        if let node = root["Title"], let value = node.string, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            title = value
        } else {
            // Blank (only whitespace) as a blank Publisher is: a feed's title would be empty.
            let found =
                root["Title"].map { node in
                    node.string.map { $0.isEmpty ? "it is empty" : "it is blank" } ?? "found \(node.kindName)"
                } ?? "it is missing"
            diagnostics.append(
                Diagnostic(
                    .magazineTitle, "Title must be a non-empty string; \(found)",
                    at: .init(file: file, line: root["Title"]?.line ?? root.line)))
        }
        var baseURL: URL?
        let baseNode = root["BaseURL"]
        if let text = baseNode?.string, let url = httpURL(text) {
            baseURL = url
            if text == Magazine.placeholderBaseURL {
                diagnostics.append(
                    Diagnostic(
                        .magazineBaseURLPlaceholder,
                        "BaseURL is still the placeholder \(SourceText.quoted(text)) that 'newsstand init' wrote: set it to the URL readers will fetch the published folder from (what 'newsstand publish --to' serves), or 'newsstand publish' refuses the build",
                        at: .init(file: file, line: baseNode?.line)))
            }
        } else {
            let found: String
            if let baseNode {
                found = baseNode.string.map { "found '\($0)'" } ?? "found \(baseNode.kindName)"
            } else {
                found = "it is missing"
            }
            diagnostics.append(
                Diagnostic(
                    .magazineBaseURL, "BaseURL must be an absolute http(s) URL such as 'https://example.com/magazine/'; \(found)",
                    at: .init(file: file, line: baseNode?.line ?? root.line)))
        }
        var publisher: String?
        if let node = root["Publisher"] {
            if let value = node.string, !value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                publisher = value
            } else {
                let found = node.string != nil ? "it is empty" : "found \(node.kindName)"
                diagnostics.append(
                    Diagnostic(
                        .magazinePublisher, "Publisher, when given, must be a non-empty string; \(found)",
                        at: .init(file: file, line: node.line)))
            }
        }
        var previewURL: URL?
        if let node = root["PreviewURL"] {
            if let text = node.string, let url = httpURL(text) {
                previewURL = url
            } else {
                let found = node.string.map { "found '\($0)'" } ?? "found \(node.kindName)"
                diagnostics.append(
                    Diagnostic(
                        .magazinePreviewURL,
                        "PreviewURL, when given, must be an absolute http(s) URL such as 'https://example.com/magazine/preview/'; \(found)",
                        at: .init(file: file, line: node.line)))
            }
        }
        return (
            title, baseURL, publisher, previewURL, deriveNormalSize(root, file: file, diagnostics: &diagnostics),
            language(root, file: file, diagnostics: &diagnostics)
        )
    }

    /// `Language`: a well-formed BCP 47 tag when given (`LanguageTag`), the language of every
    /// issue that does not give its own; nil when absent or wrong (after reporting it).
    private static func language(_ root: PlistNode, file: String, diagnostics: inout [Diagnostic]) -> String? {
        guard let node = root["Language"] else { return nil }
        if let text = node.string, LanguageTag.isWellFormed(text) { return text }
        let found = node.string.map { "found \(SourceText.quoted($0))" } ?? "found \(node.kindName)"
        diagnostics.append(
            Diagnostic(
                .magazineLanguage,
                "Language, when given, must be a BCP 47 language tag such as 'en', 'ru' or 'pt-BR' "
                    + "(the language of issues that do not give their own); \(found)",
                at: .init(file: file, line: node.line)))
        return nil
    }

    /// `DeriveNormalSize`: a boolean, true when absent (and when it has the wrong type, after
    /// reporting it: the error stops the build anyway).
    private static func deriveNormalSize(_ root: PlistNode, file: String, diagnostics: inout [Diagnostic]) -> Bool {
        guard let node = root["DeriveNormalSize"] else { return true }
        if case .scalar(.boolean(let value)) = node.value { return value }
        diagnostics.append(
            Diagnostic(
                .magazineDeriveNormalSize,
                "DeriveNormalSize, when given, must be a boolean (<true/> or <false/>); found \(node.kindName)",
                at: .init(file: file, line: node.line)))
        return true
    }

    /// An absolute http(s) URL with a host, ending in `/`; nil for anything else.
    private static func httpURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host?.isEmpty == false
        else { return nil }
        return text.hasSuffix("/") ? url : URL(string: text + "/")
    }

    /// The issue folders in `issues/`, read by raw name: a name that is not UTF-8 is reported,
    /// not dropped (FileManager skips such names on Linux), and so is a link or a special file.
    /// Hidden entries and plain files (a README) are not issues and are passed over.
    private static func issueNames(_ folder: URL, diagnostics: inout [Diagnostic]) -> [String] {
        let entries: [FolderEntry]
        do {
            entries = try OpenFolder.open(folder).folder("issues").entries()
        } catch .missing {
            diagnostics.append(Diagnostic(.noIssues, "the magazine has no issues/ folder", at: .init(file: "issues")))
            return []
        } catch .symbolicLink(_, let target, _) {
            diagnostics.append(
                Diagnostic(
                    .issueNotAFolder,
                    "issues is a symbolic link\(target.map { " (to '\($0)')" } ?? ""); the magazine's issues must be a folder inside it",
                    at: .init(file: "issues")))
            return []
        } catch .wrongKind(_, let kind, _) {
            diagnostics.append(
                Diagnostic(
                    .issueNotAFolder, "issues is \(kind); the magazine's issues must be a folder inside it",
                    at: .init(file: "issues")))
            return []
        } catch {
            diagnostics.append(
                Diagnostic(.fileUnreadable, "issues/ cannot be read: \(error.reason)", at: .init(file: "issues")))
            return []
        }
        var folders: [String] = []
        for entry in entries where !entry.isHidden {
            let display = "issues/\(entry.displayName)"
            guard let name = entry.name else {
                diagnostics.append(
                    Diagnostic(
                        .issueNameUnsafe,
                        "issue folder name '\(entry.displayName)' is not valid UTF-8; use letters, digits, '-', '_' and '.'",
                        at: .init(file: display)))
                continue
            }
            switch entry.kind {
            case .folder:
                folders.append(name)
            case .symbolicLink:
                diagnostics.append(
                    Diagnostic(
                        .issueNotAFolder,
                        "\(display) is a symbolic link; an issue must be a folder inside the magazine's issues/",
                        at: .init(file: display)))
            case .regularFile:
                continue  // a README or notes beside the issues
            default:
                diagnostics.append(
                    Diagnostic(
                        .issueNotAFolder, "\(display) is \(entry.kind); an issue must be a folder", at: .init(file: display)))
            }
        }
        folders.sort()
        if folders.isEmpty, !diagnostics.contains(where: { $0.code == .issueNotAFolder || $0.code == .issueNameUnsafe }) {
            diagnostics.append(Diagnostic(.noIssues, "issues/ has no issue folders", at: .init(file: "issues")))
        }
        // Keyed by lowercased text: Swift's `String` equality is canonical equivalence, so two
        // spellings of one text in different normalisation forms meet here too.
        var seen: [String: String] = [:]
        for name in folders {
            if let other = seen[name.lowercased()] {
                let how =
                    other == name
                    ? "are the same name in different Unicode normalisation forms ('\(AssetNames.spelling(other))' and '\(AssetNames.spelling(name))'); they are one folder on Apple disks"
                    : "differ only in letter case; they would collide on case-insensitive disks and hosts"
                diagnostics.append(
                    Diagnostic(.issueNameDuplicate, "issues '\(other)' and '\(name)' \(how)", at: .init(file: "issues/\(name)")))
            }
            seen[name.lowercased()] = name
        }
        return folders
    }
}
