import Foundation
import NewsstandTestSupport
import Testing

/// ARCHITECTURE.md's table of modules is the module graph `Package.swift` declares: every
/// module of `Sources/` (and `ReaderBench`) with exactly its dependencies.
@Suite struct ArchitectureTests {
    /// Target name → its dependencies, from `Package.swift`'s text (the targets' `name:` and the
    /// quoted names in their `dependencies:`).
    static func packageGraph() throws -> [String: Set<String>] {
        let text = try String(contentsOf: Shell.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var graph: [String: Set<String>] = [:]
        var rest = Substring(text)
        while let start = [".target(", ".executableTarget("].compactMap({ rest.range(of: $0) }).min(by: {
            $0.lowerBound < $1.lowerBound
        }) {
            // The target's text runs to its closing parenthesis.
            var depth = 1
            var index = start.upperBound
            while depth > 0, index < rest.endIndex {
                if rest[index] == "(" { depth += 1 } else if rest[index] == ")" { depth -= 1 }
                index = rest.index(after: index)
            }
            let target = rest[start.upperBound..<index]
            rest = rest[index...]
            guard let name = Self.quoted(after: "name: ", in: target) else { continue }
            var dependencies: Set<String> = []
            if let list = target.range(of: "dependencies: [") {
                var level = 1
                var end = list.upperBound
                while level > 0, end < target.endIndex {
                    if target[end] == "[" { level += 1 } else if target[end] == "]" { level -= 1 }
                    end = target.index(after: end)
                }
                let listed = target[list.upperBound..<end]
                dependencies = Set(
                    listed.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map
                    { String($0.element) })
            }
            graph[name] = dependencies
        }
        return graph
    }

    private static func quoted(after prefix: String, in text: Substring) -> String? {
        guard let start = text.range(of: prefix + "\"") else { return nil }
        return text[start.upperBound...].prefix { $0 != "\"" }.description
    }

    /// Module → dependencies, from ARCHITECTURE.md's table (`| `Name` | `A`, `B` (Linux only) | …`).
    static func documentedGraph() throws -> [String: Set<String>] {
        let text = try String(contentsOf: Shell.repositoryRoot.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        var graph: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard cells.count > 3 else { continue }
            let names = { (cell: String) in
                cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map {
                    String($0.element)
                }
            }
            guard let module = names(cells[1]).first else { continue }
            graph[module] = Set(names(cells[2]))
        }
        return graph
    }

    @Test func theDocumentedModuleGraphIsThePackages() throws {
        let package = try Self.packageGraph()
        let documented = try Self.documentedGraph()
        let modules = package.keys.filter { !$0.hasPrefix("C") && !$0.contains("Test") }
        #expect(Set(modules) == Set(documented.keys), "modules in Package.swift and ARCHITECTURE.md differ")
        for module in modules.sorted() {
            #expect(
                documented[module] == package[module],
                "\(module): ARCHITECTURE.md says \(documented[module] ?? []), Package.swift \(package[module] ?? [])")
        }
        #expect(package["NewsstandReader"].map { !$0.contains("NewsstandFormat") && !$0.contains("NewsstandBuild") } == true)
    }
}
