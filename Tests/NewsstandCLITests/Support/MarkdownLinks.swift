import Foundation

/// The relative links of a folder of Markdown files, followed as GitHub follows them: every
/// `[text](target)`, `![alt](target)` and `[label]: target` outside code, to a file or folder
/// inside the folder, and every `#anchor` to a heading of the file it names (GitHub's slugs:
/// lower case, punctuation dropped, spaces as hyphens, `-1`, `-2` for repeats).
struct MarkdownLinks {
    /// One link that leads nowhere.
    struct Broken: Equatable, CustomStringConvertible {
        var file: String
        var line: Int
        var target: String
        var reason: String

        var description: String { "\(file):\(line): \(target): \(reason)" }
    }

    let root: URL

    /// Folders never walked: build output and what `.gitignore` keeps out of the repository.
    static let skipped: Set<String> = ["output", "dist", "crashes", "node_modules"]

    /// Every Markdown file under the root, by its path relative to it, sorted.
    func markdownFiles() -> [String] {
        var files: [String] = []
        let base = root.standardizedFileURL.path
        let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        while let url = enumerator?.nextObject() as? URL {
            if Self.skipped.contains(url.lastPathComponent) {
                enumerator?.skipDescendants()
                continue
            }
            if url.pathExtension == "md" { files.append(String(url.standardizedFileURL.path.dropFirst(base.count + 1))) }
        }
        return files.sorted()
    }

    /// Every broken link in every Markdown file.
    func broken() throws -> [Broken] {
        var anchors: [String: Set<String>] = [:]
        var result: [Broken] = []
        for file in markdownFiles() {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            for (line, target) in try Self.links(in: text) {
                if let problem = try check(target, from: file, anchors: &anchors) {
                    result.append(Broken(file: file, line: line, target: target, reason: problem))
                }
            }
        }
        return result
    }

    private func check(_ target: String, from file: String, anchors: inout [String: Set<String>]) throws -> String? {
        if target.range(of: "^[A-Za-z][A-Za-z0-9+.-]*:", options: .regularExpression) != nil { return nil }
        let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let pathPart = String(parts[0]).removingPercentEncoding ?? String(parts[0])
        let fragment = parts.count > 1 ? String(parts[1]) : nil
        var destination = file
        if !pathPart.isEmpty {
            if pathPart.hasPrefix("/") { return "an absolute path (GitHub resolves it from the site, not the repository)" }
            guard let normal = Self.resolve(pathPart, from: file) else { return "leads out of the repository" }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.appendingPathComponent(normal).path, isDirectory: &isFolder) else {
                return "no such file"
            }
            if isFolder.boolValue { return fragment == nil ? nil : "an anchor into a folder" }
            destination = normal
        }
        guard let fragment, !fragment.isEmpty else { return nil }
        guard destination.hasSuffix(".md") else { return nil }
        if anchors[destination] == nil {
            let text = try String(contentsOf: root.appendingPathComponent(destination), encoding: .utf8)
            anchors[destination] = try Self.anchors(in: text)
        }
        return anchors[destination, default: []].contains(fragment.lowercased()) ? nil : "no heading \(destination)#\(fragment)"
    }

    /// `path`, relative to the folder of `file`, as a path from the root; nil when it climbs out.
    static func resolve(_ path: String, from file: String) -> String? {
        var components = file.split(separator: "/").dropLast().map(String.init)
        for component in path.split(separator: "/") {
            switch component {
            case ".": continue
            case "..":
                if components.isEmpty { return nil }
                components.removeLast()
            default: components.append(String(component))
            }
        }
        return components.joined(separator: "/")
    }

    /// The lines of `text` outside fenced code blocks, with their numbers.
    static func prose(_ text: String) -> [(Int, String)] {
        var lines: [(Int, String)] = []
        var fence: String?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if let open = fence {
                if trimmed.hasPrefix(open) { fence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                fence = String(trimmed.prefix(3))
                continue
            }
            lines.append((index + 1, String(line)))
        }
        return lines
    }

    /// `line` without its code spans.
    static func withoutCode(_ line: String) -> String {
        line.replacingOccurrences(of: "(`+)(?:(?!\\1).)+?\\1", with: "", options: .regularExpression)
    }

    /// The link targets of `text`, with their line numbers.
    static func links(in text: String) throws -> [(Int, String)] {
        var links: [(Int, String)] = []
        let inline = try NSRegularExpression(pattern: "\\]\\(<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\)")
        let definition = try NSRegularExpression(pattern: "^\\s{0,3}\\[[^\\]]+\\]:\\s+<?(\\S+?)>?(?:\\s|$)")
        for (number, raw) in prose(text) {
            let line = withoutCode(raw)
            let range = NSRange(line.startIndex..., in: line)
            for match in inline.matches(in: line, range: range) + definition.matches(in: line, range: range) {
                if let target = Range(match.range(at: 1), in: line) { links.append((number, String(line[target]))) }
            }
        }
        return links
    }

    /// The anchors GitHub gives the headings of `text` (and any `<a name>` or `id`).
    static func anchors(in text: String) throws -> Set<String> {
        var anchors: Set<String> = []
        var counts: [String: Int] = [:]
        let named = try NSRegularExpression(pattern: "<a (?:name|id)=\"([^\"]+)\"")
        for (_, line) in prose(text) {
            if line.hasPrefix("#"), let space = line.firstIndex(of: " "), line[..<space].allSatisfy({ $0 == "#" }) {
                let base = slug(String(line[line.index(after: space)...]))
                let count = counts[base, default: 0]
                counts[base] = count + 1
                anchors.insert(count == 0 ? base : "\(base)-\(count)")
            }
            for match in named.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                if let range = Range(match.range(at: 1), in: line) { anchors.insert(String(line[range]).lowercased()) }
            }
        }
        return anchors
    }

    /// GitHub's slug of a heading: links as their text, then lower case, every character but
    /// letters, digits, `_`, `-` and spaces dropped, spaces as hyphens.
    static func slug(_ heading: String) -> String {
        let text = heading.replacingOccurrences(of: "\\[([^\\]]*)\\]\\([^)]*\\)", with: "$1", options: .regularExpression)
            .trimmingCharacters(in: .whitespaces).lowercased()
        var slug = ""
        for scalar in text.unicodeScalars {
            if scalar == " " {
                slug += "-"
            } else if scalar == "-" || scalar == "_" || CharacterSet.alphanumerics.contains(scalar)
                || CharacterSet.nonBaseCharacters.contains(scalar)
            {
                slug.unicodeScalars.append(scalar)
            }
        }
        return slug
    }
}
