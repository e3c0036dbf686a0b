import Foundation
import NewsstandCore
import NewsstandFormat

/// Checks a page config (`pages.plist`) against the page-class schema: its structure (an array
/// of articles, each a non-empty array of page dicts with `class` and `properties`), each
/// page's class and each property's presence and type. Collects the asset references it meets.
///
/// The work is linear in the config's values whatever the schema holds: properties are found
/// by name in a table built once per class (and nested dict type), and past the diagnostic
/// limit missing properties are counted rather than listed.
package struct PageConfigValidator: DiagnosticReporter {
    let schema: PageClassSchema
    let file: String
    package var problems: DiagnosticList
    private(set) var references: [AssetReference] = []
    /// Every string in the properties of a page whose class is missing or unknown: the files it
    /// may name. Which of its values are assets cannot be known until its class is fixed, so an
    /// asset named here is not reported as never referenced (the page's own error says why).
    private(set) var unreadNames: Set<String> = []
    private var tables: [String: SpecTable] = [:]

    package init(schema: PageClassSchema, file: String) {
        self.schema = schema
        self.file = file
        problems = DiagnosticList(file: file)
    }

    /// A dict type's properties by name, and which are required.
    private struct SpecTable {
        var byName: [String: PropertySpec] = [:]
        var names: [String] = []
        var required: [PropertySpec] = []

        init(_ specs: [PropertySpec]) {
            for spec in specs where byName.updateValue(spec, forKey: spec.name) == nil { names.append(spec.name) }
            required = names.compactMap { byName[$0] }.filter(\.isRequired)
        }
    }

    /// The table for `specs`, built once per class and property path (`photos[].`).
    private mutating func table(_ specs: [PropertySpec], owner: String, path: String) -> SpecTable {
        let key = owner + "\u{0}" + path.replacingOccurrences(of: #"\[[0-9]+\]"#, with: "[]", options: .regularExpression)
        if let table = tables[key] { return table }
        let table = SpecTable(specs)
        tables[key] = table
        return table
    }

    package mutating func validate(_ root: PlistNode) {
        guard let articles = root.array else {
            problems.add(
                .pagesRootNotArray, "the page config must be an array of articles, found \(root.kindName)", line: root.line)
            return
        }
        if articles.isEmpty { problems.add(.pagesRootNotArray, "the page config has no articles", line: root.line) }
        for (a, article) in articles.enumerated() {
            guard let pages = article.array else {
                problems.add(
                    .articleNotArray, "article \(a + 1) must be an array of pages, found \(article.kindName)", line: article.line)
                continue
            }
            if pages.isEmpty { problems.add(.emptyArticle, "article \(a + 1) has no pages", line: article.line) }
            for (p, page) in pages.enumerated() {
                validatePage(page, label: "page \(p + 1) of article \(a + 1)")
            }
        }
    }

    private mutating func validatePage(_ page: PlistNode, label: String) {
        guard let entries = page.entries else {
            problems.add(
                .pageNotDict, "\(label) must be a dict with 'class' and 'properties', found \(page.kindName)", line: page.line)
            return
        }
        for entry in entries where entry.key != "class" && entry.key != "properties" {
            problems.add(
                .unknownPageKey,
                "\(label) has key \(SourceText.quoted(entry.key)), which apps ignore; expected only 'class' and 'properties'",
                line: entry.keyLine)
        }
        let classNode = page["class"]
        let propertiesNode = page["properties"]
        guard let classNode, let className = classNode.string else {
            let found = classNode.map { ", found \($0.kindName)" } ?? ""
            problems.add(.pageClassMissing, "\(label) has no 'class' string\(found)", line: classNode?.line ?? page.line)
            if let propertiesNode { collectStrings(propertiesNode) }
            return
        }
        guard let properties = schema.properties(of: className) else {
            let schema = self.schema
            if let propertiesNode { collectStrings(propertiesNode) }
            problems.add(
                .unknownPageClass,
                "page class \(SourceText.quoted(className)) is unknown\(Suggestion.hint(for: className, among: schema.classNames)) (known: \(Self.some(schema.classNames)))",
                line: classNode.line)
            return
        }
        guard let propertiesNode, propertiesNode.entries != nil else {
            let found = propertiesNode.map { ", found \($0.kindName)" } ?? ""
            problems.add(
                .pagePropertiesMissing, "\(label) (\(SourceText.quoted(className))) has no 'properties' dict\(found)",
                line: propertiesNode?.line ?? page.line)
            return
        }
        validateDictionary(propertiesNode, specs: properties, path: "", owner: "page class \(SourceText.quoted(className))")
    }

    private mutating func validateDictionary(_ node: PlistNode, specs: [PropertySpec], path: String, owner: String) {
        let entries = node.entries ?? []
        let table = table(specs, owner: owner, path: path)
        var requiredFound = 0
        for entry in entries {
            guard let spec = table.byName[entry.key] else {
                problems.add(
                    .unknownProperty,
                    "property \(SourceText.quoted(path + entry.key)) is not defined by \(owner)\(Suggestion.hint(for: entry.key, among: table.names))",
                    line: entry.keyLine)
                continue
            }
            if spec.isRequired { requiredFound += 1 }
            validateValue(entry.node, type: spec.type, path: path + entry.key, owner: owner)
        }
        let missing = table.required.count - requiredFound
        guard missing > 0 else { return }
        if problems.isFull {
            problems.count(.requiredPropertyMissing, times: missing)
            return
        }
        let present = Set(entries.map(\.key))
        for spec in table.required where !present.contains(spec.name) {
            problems.add(
                .requiredPropertyMissing,
                "required property \(SourceText.quoted(path + spec.name)) (\(spec.type.description)) of \(owner) is missing",
                line: node.line)
        }
    }

    /// Adds every string under `node` to `unreadNames`.
    private mutating func collectStrings(_ node: PlistNode) {
        switch node.value {
        case .scalar(.string(let text)): unreadNames.insert(text)
        case .array(let items): for item in items { collectStrings(item) }
        case .dictionary(let entries): for entry in entries { collectStrings(entry.node) }
        default: break
        }
    }

    /// The first names of a list, for a message that must stay short.
    private static func some(_ names: [String]) -> String {
        let shown = names.prefix(20).joined(separator: ", ")
        return names.count > 20 ? shown + " and \(PlistLimits.grouped(names.count - 20)) more" : shown
    }

    private mutating func validateValue(_ node: PlistNode, type: PropertyType, path: String, owner: String) {
        func wrongType(_ detail: String = "") {
            problems.add(
                .propertyWrongType,
                "property \(SourceText.quoted(path)) must be \(Self.article(type.description))\(detail), found \(node.kindName)\(Self.shown(node))",
                line: node.line)
        }
        switch (type, node.value) {
        case (.image, .scalar(.string(let name))), (.movie, .scalar(.string(let name))), (.file, .scalar(.string(let name))):
            references.append(
                AssetReference(name: name, kind: type.assetKind!, location: SourceLocation(file: file, line: node.line)))
        case (.string, .scalar(.string)), (.boolean, .scalar(.boolean)), (.date, .scalar(.date)), (.number, .scalar(.integer)),
            (.number, .scalar(.real)):
            break
        case (.url, .scalar(.string(let text))):
            // No white space or control character is part of a URL (RFC 3986): Foundation on Linux
            // and newer Apple systems percent-encode them, older ones read no URL at all.
            if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || SafeRelativePath.isUnprintable($0) })
                || URL(string: text)?.scheme == nil
            {
                problems.add(
                    .propertyWrongType,
                    "property \(SourceText.quoted(path)) must be an absolute URL with a scheme, found \(SourceText.quoted(text))",
                    line: node.line)
            }
        case (.array(let item, let minCount, let maxCount), .array(let items)):
            if let minCount, items.count < minCount {
                problems.add(
                    .arrayCount,
                    "property \(SourceText.quoted(path)) must have at least \(minCount) item(s), found \(items.count)",
                    line: node.line)
            }
            if let maxCount, items.count > maxCount {
                problems.add(
                    .arrayCount,
                    "property \(SourceText.quoted(path)) must have at most \(maxCount) item(s), found \(items.count)",
                    line: node.line)
            }
            for (index, element) in items.enumerated() {
                validateValue(element, type: item, path: "\(path)[\(index)]", owner: owner)
            }
        case (.dictionary(let specs), .dictionary):
            validateDictionary(node, specs: specs, path: path + ".", owner: owner)
        case (.image, _), (.movie, _), (.file, _):
            wrongType(" (a file name in assets/)")
        default:
            wrongType()
        }
    }

    private static func article(_ word: String) -> String {
        let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
        return (word.first.map { vowels.contains($0) } ?? false ? "an " : "a ") + word
    }

    private static func shown(_ node: PlistNode) -> String {
        switch node.value {
        case .scalar(.string(let s)): return " " + SourceText.quoted(s)
        case .scalar(.integer(let i)): return " \(i)"
        case .scalar(.real(let r)): return " \(r)"
        case .scalar(.boolean(let b)): return " \(b)"
        default: return ""
        }
    }
}
