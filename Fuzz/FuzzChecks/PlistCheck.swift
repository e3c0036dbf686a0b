import Foundation
import NewsstandCore
import NewsstandFormat

/// `PlistReader` on any bytes (XML through libxml2, or `bplist`): it reads or fails with
/// diagnostics naming the file; what it reads, `PlistWriter` writes, and that reads back to
/// the same value (what the validator checked is what goes into a bundle).
enum PlistCheck {
    static let displayPath = "issues/fuzz/pages.plist"

    static func check(_ data: Data) -> String? {
        let root: PlistNode
        do {
            root = try PlistReader.read(data: data, displayPath: displayPath)
        } catch {
            return Diagnostics.check(error.diagnostics, files: [displayPath])
        }
        if let problem = Lines.check(root) { return problem }
        let xml: Data
        do {
            xml = try PlistWriter.xml(root)
        } catch {
            // Only a string a binary list holds may have a character XML cannot carry.
            guard data.starts(with: Array("bplist".utf8)), error.reason.contains("cannot be written in an XML property list")
            else {
                return "PlistWriter refused what PlistReader read: \(error.reason)"
            }
            return nil
        }
        let again: PlistNode
        do {
            again = try PlistReader.read(data: xml, displayPath: displayPath)
        } catch {
            return "PlistWriter's output does not read back: \(error.diagnostics.map(\.message))"
        }
        guard PlistValues.same(root.plistValue, again.plistValue, wholeSeconds: true) else {
            return "read back differently: \(root.plistValue) became \(again.plistValue)"
        }
        guard (try? PlistWriter.xml(again)) == xml else { return "PlistWriter's output is not stable" }
        return nil
    }
}

/// Node lines are never negative.
enum Lines {
    static func check(_ node: PlistNode) -> String? {
        guard node.line >= 0 else { return "a node on line \(node.line)" }
        switch node.value {
        case .scalar: return nil
        case .array(let items):
            for item in items { if let problem = check(item) { return problem } }
        case .dictionary(let entries):
            for entry in entries {
                guard entry.keyLine >= 0 else { return "a key on line \(entry.keyLine)" }
                if let problem = check(entry.node) { return problem }
            }
        }
        return nil
    }
}

/// Diagnostics of a failed read: at least one, each about one of the files read, with a line
/// that is not negative.
enum Diagnostics {
    static func check(_ diagnostics: [Diagnostic], files: Set<String>) -> String? {
        guard !diagnostics.isEmpty else { return "a failure without a diagnostic" }
        for diagnostic in diagnostics {
            guard let location = diagnostic.location, files.contains(location.file) else {
                return "a diagnostic about another file: \(diagnostic)"
            }
            if let line = location.line, line < 0 { return "a diagnostic on line \(line): \(diagnostic)" }
            guard !diagnostic.message.isEmpty else { return "an empty message: \(diagnostic)" }
        }
        return nil
    }
}

/// Equality of plist values where NaN equals NaN, and dates may be compared in whole seconds
/// (the XML form keeps no more).
enum PlistValues {
    static func same(_ a: PlistValue, _ b: PlistValue, wholeSeconds: Bool) -> Bool {
        switch (a, b) {
        case (.real(let x), .real(let y)): return x == y || (x.isNaN && y.isNaN)
        case (.date(let x), .date(let y)):
            guard wholeSeconds else { return x == y }
            return x.timeIntervalSince1970.rounded(.down) == y.timeIntervalSince1970.rounded(.down)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1, wholeSeconds: wholeSeconds) }
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count
                && x.allSatisfy { key, value in y[key].map { same(value, $0, wholeSeconds: wholeSeconds) } ?? false }
        default: return a == b
        }
    }
}
