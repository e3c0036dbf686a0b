import Foundation
import NewsstandFormat

/// Checks a page config (`pages.plist`) against the page-class schema: its structure (an array
/// of articles, each a non-empty array of page dicts with `class` and `properties`), each
/// page's class and each property's presence and type. Collects the asset references it meets.
struct PageConfigValidator {
    let schema: PageClassSchema
    let file: String
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var references: [AssetReference] = []

    init(schema: PageClassSchema, file: String) {
        self.schema = schema
        self.file = file
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
                .unknownPageKey, "\(label) has key '\(entry.key)', which apps ignore; expected only 'class' and 'properties'",
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
            let hint = Suggestion.closest(to: className, among: schema.classNames).map { "; did you mean '\($0)'?" } ?? ""
            report(
                .unknownPageClass,
                "page class '\(className)' is unknown\(hint) (known: \(schema.classNames.joined(separator: ", ")))",
                classNode.line)
            return
        }
        guard let propertiesNode, propertiesNode.entries != nil else {
            let found = propertiesNode.map { ", found \($0.kindName)" } ?? ""
            report(
                .pagePropertiesMissing, "\(label) (\(className)) has no 'properties' dict\(found)",
                propertiesNode?.line ?? page.line)
            return
        }
        validateDictionary(propertiesNode, specs: properties, path: "", owner: "page class '\(className)'")
    }

    private mutating func validateDictionary(_ node: PlistNode, specs: [PropertySpec], path: String, owner: String) {
        let entries = node.entries ?? []
        for spec in specs where spec.isRequired && !entries.contains(where: { $0.key == spec.name }) {
            report(
                .requiredPropertyMissing,
                "required property '\(path + spec.name)' (\(spec.type.description)) of \(owner) is missing", node.line)
        }
        for entry in entries {
            guard let spec = specs.first(where: { $0.name == entry.key }) else {
                let hint = Suggestion.closest(to: entry.key, among: specs.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
                report(.unknownProperty, "property '\(path + entry.key)' is not defined by \(owner)\(hint)", entry.keyLine)
                continue
            }
            validateValue(entry.node, type: spec.type, path: path + entry.key, owner: owner)
        }
    }

    private mutating func validateValue(_ node: PlistNode, type: PropertyType, path: String, owner: String) {
        func wrongType(_ detail: String = "") {
            report(
                .propertyWrongType,
                "property '\(path)' must be \(Self.article(type.description))\(detail), found \(node.kindName)\(Self.shown(node))",
                node.line)
        }
        switch (type, node.value) {
        case (.image, .string(let name)), (.movie, .string(let name)), (.file, .string(let name)):
            references.append(
                AssetReference(name: name, kind: type.assetKind!, location: SourceLocation(file: file, line: node.line)))
        case (.string, .string), (.boolean, .boolean), (.date, .date), (.number, .integer), (.number, .real):
            break
        case (.url, .string(let text)):
            if URL(string: text)?.scheme == nil {
                report(.propertyWrongType, "property '\(path)' must be an absolute URL with a scheme, found '\(text)'", node.line)
            }
        case (.array(let item, let minCount, let maxCount), .array(let items)):
            if let minCount, items.count < minCount {
                report(.arrayCount, "property '\(path)' must have at least \(minCount) item(s), found \(items.count)", node.line)
            }
            if let maxCount, items.count > maxCount {
                report(.arrayCount, "property '\(path)' must have at most \(maxCount) item(s), found \(items.count)", node.line)
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
        case .string(let s): return " " + SourceText.quoted(s)
        case .integer(let i): return " \(i)"
        case .real(let r): return " \(r)"
        case .boolean(let b): return " \(b)"
        default: return ""
        }
    }

    private mutating func report(_ code: DiagnosticCode, _ message: String, _ line: Int) {
        diagnostics.append(Diagnostic(code, message, at: SourceLocation(file: file, line: line > 0 ? line : nil)))
    }
}
