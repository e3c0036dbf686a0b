import NewsstandCore
import NewsstandFormat

/// Reads a page-class schema property list into `PageClass`es, reporting every problem in it.
///
/// ```
/// <dict>
///   <key>PhotoPage</key>
///   <dict>
///     <key>inherits</key><string>SimplePage</string>
///     <key>properties</key>
///     <dict>
///       <key>photos</key>
///       <dict><key>type</key><string>array</string><key>required</key><true/> … </dict>
///     </dict>
///   </dict>
/// </dict>
/// ```
package struct SchemaParser: DiagnosticReporter {
    let file: String
    package var problems: DiagnosticList

    package init(file: String) {
        self.file = file
        problems = DiagnosticList(file: file)
    }

    static let typeNames = ["image", "movie", "file", "string", "number", "boolean", "url", "date", "array", "dict"]
    private static let classKeys: Set<String> = ["inherits", "properties", "description"]
    private static let propertyKeys: Set<String> = [
        "type", "required", "items", "minCount", "maxCount", "properties", "description",
    ]

    package mutating func parse(_ root: PlistNode) -> [PageClass] {
        guard let entries = root.entries else {
            problems.add(
                .schemaInvalid, "the schema's root must be a dict of page classes, found \(root.kindName)", line: root.line)
            return []
        }
        var classes: [PageClass] = []
        for entry in entries {
            if let pageClass = parseClass(entry) { classes.append(pageClass) }
        }
        return classes
    }

    private mutating func parseClass(_ entry: PlistNode.Entry) -> PageClass? {
        let node = entry.node
        guard let entries = node.entries else {
            problems.add(
                .schemaInvalid, "page class \(SourceText.quoted(entry.key)) must be a dict, found \(node.kindName)",
                line: node.line)
            return nil
        }
        for unknown in entries where !Self.classKeys.contains(unknown.key) {
            problems.add(
                .schemaInvalid,
                "page class \(SourceText.quoted(entry.key)) has unknown key \(SourceText.quoted(unknown.key)); expected inherits, properties or description",
                line: unknown.keyLine)
        }
        var parent: String?
        if let inherits = node["inherits"] {
            if let name = inherits.string {
                parent = name
            } else {
                problems.add(
                    .schemaInvalid, "'inherits' of \(SourceText.quoted(entry.key)) must be a string", line: inherits.line)
            }
        }
        var properties: [PropertySpec] = []
        if let props = node["properties"] {
            properties = parseProperties(props, owner: "page class \(SourceText.quoted(entry.key))")
        }
        return PageClass(
            name: entry.key, parent: parent, properties: properties, location: SourceLocation(file: file, line: entry.keyLine))
    }

    private mutating func parseProperties(_ node: PlistNode, owner: String) -> [PropertySpec] {
        guard let entries = node.entries else {
            problems.add(.schemaInvalid, "'properties' of \(owner) must be a dict, found \(node.kindName)", line: node.line)
            return []
        }
        return entries.compactMap { entry in
            guard let type = parseType(entry.node, name: "\(SourceText.quoted(entry.key)) of \(owner)") else { return nil }
            var required = false
            if let flag = entry.node["required"] {
                if case .scalar(.boolean(let b)) = flag.value {
                    required = b
                } else {
                    problems.add(
                        .schemaInvalid, "'required' of \(SourceText.quoted(entry.key)) must be true or false", line: flag.line)
                }
            }
            return PropertySpec(name: entry.key, type: type, isRequired: required)
        }
    }

    private mutating func parseType(_ node: PlistNode, name: String) -> PropertyType? {
        guard let entries = node.entries else {
            problems.add(.schemaInvalid, "property \(name) must be a dict with a 'type', found \(node.kindName)", line: node.line)
            return nil
        }
        for unknown in entries where !Self.propertyKeys.contains(unknown.key) {
            problems.add(
                .schemaInvalid, "property \(name) has unknown key \(SourceText.quoted(unknown.key))", line: unknown.keyLine)
        }
        guard let typeNode = node["type"], let typeName = typeNode.string else {
            problems.add(.schemaInvalid, "property \(name) has no 'type' string", line: node.line)
            return nil
        }
        switch typeName {
        case "image": return .image
        case "movie": return .movie
        case "file": return .file
        case "string": return .string
        case "number": return .number
        case "boolean": return .boolean
        case "url": return .url
        case "date": return .date
        case "array":
            guard let items = node["items"] else {
                problems.add(.schemaInvalid, "array property \(name) has no 'items' type", line: node.line)
                return nil
            }
            guard let itemType = parseType(items, name: "items of \(name)") else { return nil }
            return .array(of: itemType, minCount: count(node, "minCount"), maxCount: count(node, "maxCount"))
        case "dict":
            let properties = node["properties"].map { parseProperties($0, owner: name) } ?? []
            return .dictionary(properties)
        default:
            let hint = Suggestion.hint(for: typeName, among: Self.typeNames)
            problems.add(
                .schemaUnknownType,
                "property \(name) has unknown type \(SourceText.quoted(typeName))\(hint) (expected one of \(Self.typeNames.joined(separator: ", ")))",
                line: typeNode.line)
            return nil
        }
    }

    private mutating func count(_ node: PlistNode, _ key: String) -> Int? {
        guard let value = node[key] else { return nil }
        if case .scalar(.integer(let i)) = value.value, i >= 0 { return i }
        problems.add(.schemaInvalid, "'\(key)' must be a non-negative integer", line: value.line)
        return nil
    }
}
