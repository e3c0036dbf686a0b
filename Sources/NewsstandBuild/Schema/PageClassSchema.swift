import Foundation
import NewsstandCore
import NewsstandFormat

/// The page classes a magazine may use: the built-in schema with the magazine's own
/// `page-classes.plist` on top (a class of the same name replaces the built-in one).
///
/// A magazine's schema comes from outside: inheritance chains are cut at
/// `maximumInheritanceDepth` and the properties of all classes, inherited ones counted again
/// for every class that inherits them, at `maximumResolvedProperties`, so resolving it costs
/// bounded time and memory.
public struct PageClassSchema: Sendable {
    /// Every class by name, as declared.
    public private(set) var classes: [String: PageClass] = [:]
    /// The class names, sorted.
    public private(set) var classNames: [String] = []
    /// Properties of every class with inheritance applied, for the classes that resolve.
    private var resolved: [String: [PropertySpec]] = [:]
    private var resolvedCount = 0
    private var overBudget = false

    /// The longest chain of `inherits` followed.
    public static let maximumInheritanceDepth = 32
    /// The most properties, over all classes and counting inherited ones, a schema may resolve to.
    public static let maximumResolvedProperties = 100_000

    /// Builds a schema from layers of classes, later layers overriding earlier ones, and
    /// reports unknown parents and inheritance cycles.
    public init(layers: [[PageClass]], diagnostics: inout [Diagnostic]) {
        for layer in layers {
            for pageClass in layer { classes[pageClass.name] = pageClass }
        }
        classNames = classes.keys.sorted()
        // At most 1,000 listed: a schema of 100,000 classes with unknown parents would otherwise
        // search every name for a suggestion 100,000 times.
        var list = DiagnosticList(file: "page-classes.plist")
        for name in classNames {
            _ = resolve(name, visiting: [], diagnostics: &list)
        }
        diagnostics += list.diagnostics
    }

    /// The properties of `className` including inherited ones, or nil for an unknown class.
    public func properties(of className: String) -> [PropertySpec]? {
        resolved[className]
    }

    private mutating func resolve(_ name: String, visiting: [String], diagnostics: inout DiagnosticList) -> [PropertySpec]? {
        if let done = resolved[name] { return done }
        guard let pageClass = classes[name], !overBudget else { return nil }
        var properties: [PropertySpec] = []
        if let parent = pageClass.parent {
            if visiting.contains(parent) || parent == name {
                let cycle = (visiting + [name, parent]).drop { $0 != parent }.map { SourceText.quoted($0) }.joined(
                    separator: " → ")
                diagnostics.add(.schemaCycle, "page classes inherit in a cycle: \(cycle)", at: pageClass.location)
                return nil
            }
            guard visiting.count < Self.maximumInheritanceDepth else {
                diagnostics.add(
                    .schemaInvalid,
                    "page class \(SourceText.quoted(name)) inherits through more than \(Self.maximumInheritanceDepth) classes, the most a schema may chain",
                    at: pageClass.location)
                return nil
            }
            guard classes[parent] != nil else {
                let names = classNames
                diagnostics.add(
                    .schemaUnknownParent,
                    "page class \(SourceText.quoted(name)) inherits from unknown class \(SourceText.quoted(parent))\(Suggestion.hint(for: parent, among: names))",
                    at: pageClass.location)
                return nil
            }
            guard let inherited = resolve(parent, visiting: visiting + [name], diagnostics: &diagnostics) else {
                return nil
            }
            properties = inherited
        }
        if !pageClass.properties.isEmpty {
            // An own property replaces an inherited one of the same name (and moves to the end).
            let own = Set(pageClass.properties.map(\.name))
            properties.removeAll { own.contains($0.name) }
            var seen: Set<String> = []
            for spec in pageClass.properties.reversed() where seen.insert(spec.name).inserted {
                properties.append(spec)
            }
            properties[(properties.count - seen.count)...].reverse()
        }
        resolvedCount += properties.count
        guard resolvedCount <= Self.maximumResolvedProperties else {
            overBudget = true
            diagnostics.add(
                .schemaInvalid,
                "the page classes declare more than \(PlistLimits.grouped(Self.maximumResolvedProperties)) properties, counting inherited ones once per class; classes from \(SourceText.quoted(name)) on are not used",
                at: pageClass.location)
            return nil
        }
        resolved[name] = properties
        return properties
    }
}

extension PageClassSchema {
    /// Reads a schema file into classes; problems in it are appended to `diagnostics`.
    public static func classes(in url: URL, displayPath: String, diagnostics: inout [Diagnostic]) -> [PageClass] {
        do {
            let root = try PlistReader.read(contentsOf: url, displayPath: displayPath)
            var parser = SchemaParser(file: displayPath)
            let classes = parser.parse(root)
            diagnostics += parser.diagnostics
            return classes
        } catch {
            diagnostics += error.diagnostics
            return []
        }
    }
}
