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
struct PageConfigValidator {
    let schema: PageClassSchema
    let file: String
    private var list: DiagnosticList
    private(set) var references: [AssetReference] = []
    private var tables: [String: SpecTable] = [:]

    init(schema: PageClassSchema, file: String) {
        self.schema = schema
        self.file = file
        list = DiagnosticList(file: file)
    }

    /// Every problem found (at most `DiagnosticList.standardLimit` listed).
    var diagnostics: [Diagnostic] { list.diagnostics }

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

    mutating func validate(_ root: PlistNode) {
        guard let articles = root.array else {
            report(.pagesRootNotArray, "the page config must be an array of articles, found \(root.kindName)", root.line)
            return
        }
        if articles.isEmpty { report(.pagesRootNotArray, "the page config has no articles", root.line) }
        for (a, article) in articles.enumerated() {
            guard let pages = article.array else {
                report(.articleNotArray, "article \(a + 1) must be an array of pages, found \(article.kindName)", article.line)
                continue
            }
            if pages.isEmpty { report(.emptyArticle, "article \(a + 1) has no pages", article.line) }
            for (p, page) in pages.enumerated() {
                validatePage(page, label: "page \(p + 1) of article \(a + 1)")
            }
        }
    }

    private mutating func validatePage(_ page: PlistNode, label: String) {
        guard let entries = page.entries else {
            report(.pageNotDict, "\(label) must be a dict with 'class' and 'properties', found \(page.kindName)", page.line)
            return
        }
        for entry in entries where entry.key != "class" && entry.key != "properties" {
            report(
                .unknownPageKey, "\(label) has key \(SourceText.quoted(entry.key)), which apps ignore; expected only 'class' and 'properties'",
                entry.keyLine)
        }
        let classNode = page["class"]
        guard let classNode, let className = classNode.string else {
            let found = classNode.map { ", found \($0.kindName)" } ?? ""
            report(.pageClassMissing, "\(label) has no 'class' string\(found)", classNode?.line ?? page.line)
            return
        }
        let propertiesNode = page["properties"]
        guard let properties = schema.properties(of: className) else {
            let schema = self.schema
            report(
                .unknownPageClass,
                "page class \(SourceText.quoted(className)) is unknown\(Self.hint(className, among: schema.classNames)) (known: \(Self.some(schema.classNames)))",
                classNode.line)
            return
        }
        guard let propertiesNode, propertiesNode.entries != nil else {
            let found = propertiesNode.map { ", found \($0.kindName)" } ?? ""
            report(
                .pagePropertiesMissing, "\(label) (\(SourceText.quoted(className))) has no 'properties' dict\(found)",
                propertiesNode?.line ?? page.line)
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
                report(
                    .unknownProperty,
                    "property \(SourceText.quoted(path + entry.key)) is not defined by \(owner)\(Self.hint(entry.key, among: table.names))",
                    entry.keyLine)
                continue
            }
            if spec.isRequired { requiredFound += 1 }
            validateValue(entry.node, type: spec.type, path: path + entry.key, owner: owner)
        }
        let missing = table.required.count - requiredFound
        guard missing > 0 else { return }
        if list.isFull {
            list.count(.requiredPropertyMissing, times: missing)
            return
        }
        let present = Set(entries.map(\.key))
        for spec in table.required where !present.contains(spec.name) {
            report(
                .requiredPropertyMissing,
                "required property \(SourceText.quoted(path + spec.name)) (\(spec.type.description)) of \(owner) is missing", node.line)
        }
    }

    /// "; did you mean 'X'?" when a name is close to `word`.
    private static func hint(_ word: String, among names: [String]) -> String {
        Suggestion.closest(to: word, among: names).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The first names of a list, for a message that must stay short.
    private static func some(_ names: [String]) -> String {
        let shown = names.prefix(20).joined(separator: ", ")
        return names.count > 20 ? shown + " and \(PlistLimits.grouped(names.count - 20)) more" : shown
    }

    private mutating func validateValue(_ node: PlistNode, type: PropertyType, path: String, owner: String) {
        func wrongType(_ detail: String = "") {
            report(
                .propertyWrongType,
                "property \(SourceText.quoted(path)) must be \(Self.article(type.description))\(detail), found \(node.kindName)\(Self.shown(node))",
                node.line)
        }
        switch (type, node.value) {
        case (.image, .scalar(.string(let name))), (.movie, .scalar(.string(let name))), (.file, .scalar(.string(let name))):
            references.append(
                AssetReference(name: name, kind: type.assetKind!, location: SourceLocation(file: file, line: node.line)))
        case (.string, .scalar(.string)), (.boolean, .scalar(.boolean)), (.date, .scalar(.date)), (.number, .scalar(.integer)),
            (.number, .scalar(.real)):
            break
        case (.url, .scalar(.string(let text))):
            if URL(string: text)?.scheme == nil {
                report(
                    .propertyWrongType, "property \(SourceText.quoted(path)) must be an absolute URL with a scheme, found \(SourceText.quoted(text))",
                    node.line)
            }
        case (.array(let item, let minCount, let maxCount), .array(let items)):
            if let minCount, items.count < minCount {
                report(.arrayCount, "property \(SourceText.quoted(path)) must have at least \(minCount) item(s), found \(items.count)", node.line)
            }
            if let maxCount, items.count > maxCount {
                report(.arrayCount, "property \(SourceText.quoted(path)) must have at most \(maxCount) item(s), found \(items.count)", node.line)
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

    private mutating func report(_ code: DiagnosticCode, _ message: @autoclosure () -> String, _ line: Int) {
        list.add(code, message(), line: line)
    }
}
