import Foundation
import NewsstandFormat

/// The page classes a magazine may use: the built-in schema with the magazine's own
/// `page-classes.plist` on top (a class of the same name replaces the built-in one).
public struct PageClassSchema: Sendable {
    /// Every class by name, as declared.
    public private(set) var classes: [String: PageClass] = [:]
    /// Properties of every class with inheritance applied, for the classes that resolve.
    private var resolved: [String: [PropertySpec]] = [:]

    /// Builds a schema from layers of classes, later layers overriding earlier ones, and
    /// reports unknown parents and inheritance cycles.
    public init(layers: [[PageClass]], diagnostics: inout [Diagnostic]) {
        for layer in layers {
            for pageClass in layer { classes[pageClass.name] = pageClass }
        }
        for name in classes.keys.sorted() {
            _ = resolve(name, visiting: [], diagnostics: &diagnostics)
        }
    }

    /// The class names, sorted.
    public var classNames: [String] { classes.keys.sorted() }

    /// The properties of `className` including inherited ones, or nil for an unknown class.
    public func properties(of className: String) -> [PropertySpec]? {
        resolved[className]
    }

    private mutating func resolve(_ name: String, visiting: [String], diagnostics: inout [Diagnostic]) -> [PropertySpec]? {
        if let done = resolved[name] { return done }
        guard let pageClass = classes[name] else { return nil }
        var properties: [PropertySpec] = []
        if let parent = pageClass.parent {
            if visiting.contains(parent) || parent == name {
                let cycle = (visiting + [name, parent]).drop { $0 != parent }.joined(separator: " → ")
                diagnostics.append(
                    Diagnostic(.schemaCycle, "page classes inherit in a cycle: \(cycle)", at: pageClass.location))
                return nil
            }
            guard classes[parent] != nil else {
                let hint = Suggestion.closest(to: parent, among: classNames).map { "; did you mean '\($0)'?" } ?? ""
                diagnostics.append(
                    Diagnostic(
                        .schemaUnknownParent, "page class '\(name)' inherits from unknown class '\(parent)'\(hint)",
                        at: pageClass.location))
                return nil
            }
            guard let inherited = resolve(parent, visiting: visiting + [name], diagnostics: &diagnostics) else {
                return nil
            }
            properties = inherited
        }
        for own in pageClass.properties {
            properties.removeAll { $0.name == own.name }
            properties.append(own)
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
