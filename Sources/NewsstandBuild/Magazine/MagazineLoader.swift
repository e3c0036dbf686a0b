import Foundation
import NewsstandFormat

/// Opens a magazine folder: reads `magazine.plist`, the built-in and the magazine's page-class
/// schemas and the list of issues, reporting every problem found on the way.
public enum MagazineLoader {
    /// Opens the magazine at `folder`. Problems go to `diagnostics`; the result is usable for
    /// validating issues even when `magazine.plist` has errors.
    public static func open(
        _ folder: URL, builtInSchema: URL, diagnostics: inout [Diagnostic]
    ) -> Magazine {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            diagnostics.append(
                Diagnostic(.fileMissing, "magazine folder '\(folder.path)' does not exist or is not a folder", at: nil))
            return Magazine(folder: folder, schema: PageClassSchema(layers: [], diagnostics: &diagnostics), issueNames: [])
        }
        let (title, baseURL) = readSettings(folder, diagnostics: &diagnostics)
        var layers = [PageClassSchema.classes(in: builtInSchema, displayPath: builtInSchema.path, diagnostics: &diagnostics)]
        let own = folder.appendingPathComponent("page-classes.plist")
        if FileManager.default.fileExists(atPath: own.path) {
            layers.append(PageClassSchema.classes(in: own, displayPath: "page-classes.plist", diagnostics: &diagnostics))
        }
        let schema = PageClassSchema(layers: layers, diagnostics: &diagnostics)
        let names = issueNames(folder, diagnostics: &diagnostics)
        return Magazine(folder: folder, title: title, baseURL: baseURL, schema: schema, issueNames: names)
    }

    private static func readSettings(_ folder: URL, diagnostics: inout [Diagnostic]) -> (String?, URL?) {
        let file = "magazine.plist"
        let root: PlistNode
        do {
            root = try PlistReader.read(contentsOf: folder.appendingPathComponent(file), displayPath: file)
        } catch {
            diagnostics += error.diagnostics
            return (nil, nil)
        }
        guard root.entries != nil else {
            diagnostics.append(
                Diagnostic(
                    .magazineNotDict, "magazine.plist must be a dict, found \(root.kindName)",
                    at: .init(file: file, line: root.line)))
            return (nil, nil)
        }
        var title: String?
        if let node = root["Title"], let value = node.string, !value.isEmpty {
            title = value
        } else {
            let found = root["Title"].map { "found \($0.kindName)" } ?? "it is missing"
            diagnostics.append(
                Diagnostic(
                    .magazineTitle, "Title must be a non-empty string; \(found)",
                    at: .init(file: file, line: root["Title"]?.line ?? root.line)))
        }
        var baseURL: URL?
        let baseNode = root["BaseURL"]
        if let text = baseNode?.string, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            ["http", "https"].contains(scheme), url.host?.isEmpty == false
        {
            baseURL = text.hasSuffix("/") ? url : URL(string: text + "/")
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
        return (title, baseURL)
    }

    private static func issueNames(_ folder: URL, diagnostics: inout [Diagnostic]) -> [String] {
        let issues = folder.appendingPathComponent("issues")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: issues.path) else {
            diagnostics.append(Diagnostic(.noIssues, "the magazine has no issues/ folder", at: .init(file: "issues")))
            return []
        }
        let folders = names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(atPath: issues.appendingPathComponent(name).path, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted()
        if folders.isEmpty {
            diagnostics.append(Diagnostic(.noIssues, "issues/ has no issue folders", at: .init(file: "issues")))
        }
        var seen: [String: String] = [:]
        for name in folders {
            if let other = seen[name.lowercased()] {
                diagnostics.append(
                    Diagnostic(
                        .issueNameDuplicate,
                        "issues '\(other)' and '\(name)' differ only in letter case; they would collide on case-insensitive disks and hosts",
                        at: .init(file: "issues/\(name)")))
            }
            seen[name.lowercased()] = name
        }
        return folders
    }
}
