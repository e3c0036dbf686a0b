import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat

/// One issue's page config checked against the page-class schema, from memory: the built-in
/// classes, a magazine's own `page-classes.plist` (the input's bytes before a line
/// `%%pages%%`, when there is one) and `pages.plist` (the rest). Diagnostics are about those
/// files, on lines they have, and the same on a second run.
enum PageConfigCheck {
    static let separator = Data("\n%%pages%%\n".utf8)
    static let schemaFile = "page-classes.plist"
    static let pagesFile = "issues/fuzz/pages.plist"

    /// The built-in classes, read once from the repository's templates.
    static let builtIn: [PageClass] = {
        var diagnostics: [Diagnostic] = []
        let url = Repository.root.appendingPathComponent("templates/page-classes.plist")
        let classes = PageClassSchema.classes(in: url, displayPath: "templates/page-classes.plist", diagnostics: &diagnostics)
        guard diagnostics.isEmpty, !classes.isEmpty else { fatalError("the built-in schema does not read: \(diagnostics)") }
        return classes
    }()

    static func check(_ data: Data) -> String? {
        let schemaBytes: Data?
        let pagesBytes: Data
        if let range = data.range(of: separator) {
            schemaBytes = data[data.startIndex..<range.lowerBound]
            pagesBytes = data[range.upperBound...]
        } else {
            schemaBytes = nil
            pagesBytes = data
        }
        let first = validate(schema: schemaBytes.map { Data($0) }, pages: Data(pagesBytes))
        let files: Set<String> = [schemaFile, pagesFile]
        for diagnostic in first {
            guard let location = diagnostic.location, files.contains(location.file) else {
                return "a diagnostic about another file: \(diagnostic)"
            }
            guard !diagnostic.message.isEmpty else { return "an empty message: \(diagnostic)" }
            guard let line = location.line else { continue }
            let source = location.file == schemaFile ? schemaBytes.map { Data($0) } : Data(pagesBytes)
            if let lines = source.flatMap(lineCount), !(0...lines).contains(line) {
                return "a diagnostic on line \(line) of a file of \(lines) lines: \(diagnostic)"
            }
        }
        let second = validate(schema: schemaBytes.map { Data($0) }, pages: Data(pagesBytes))
        guard first == second else { return "two runs disagree: \(first) then \(second)" }
        return nil
    }

    /// Every diagnostic of reading the schema and validating the page config against it.
    static func validate(schema: Data?, pages: Data) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var layers = [builtIn]
        if let schema {
            do {
                let root = try PlistReader.read(data: schema, displayPath: schemaFile)
                var parser = SchemaParser(file: schemaFile)
                layers.append(parser.parse(root))
                diagnostics += parser.diagnostics
            } catch {
                diagnostics += error.diagnostics
            }
        }
        let classes = PageClassSchema(layers: layers, diagnostics: &diagnostics)
        do {
            let root = try PlistReader.read(data: pages, displayPath: pagesFile)
            var validator = PageConfigValidator(schema: classes, file: pagesFile)
            validator.validate(root)
            diagnostics += validator.diagnostics
        } catch {
            diagnostics += error.diagnostics
        }
        return diagnostics
    }

    /// The lines libxml2 counts in a UTF-8 XML file (a line feed, a carriage return not
    /// followed by one); nil for bytes where that count would not be sure (binary lists, other
    /// encodings, NUL bytes).
    static func lineCount(_ data: Data) -> Int? {
        guard !data.starts(with: Array("bplist".utf8)), !data.contains(0), String(data: data, encoding: .utf8) != nil,
            !data.starts(with: [0xFE, 0xFF]), !data.starts(with: [0xFF, 0xFE])
        else { return nil }
        let bytes = [UInt8](data)
        var lines = 1
        for (index, byte) in bytes.enumerated() {
            if byte == 0x0A || (byte == 0x0D && (index + 1 == bytes.count || bytes[index + 1] != 0x0A)) { lines += 1 }
        }
        return lines
    }
}

/// The repository this checkout is, for the built-in templates.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
}
