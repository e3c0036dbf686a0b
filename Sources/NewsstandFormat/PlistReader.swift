import CXML2
import Foundation

/// Why a property list could not be read: every problem found, as diagnostics with lines.
public struct PlistReadFailure: Error, Sendable, Equatable {
    /// The problems, at least one.
    public var diagnostics: [Diagnostic]
}

/// Reads XML property lists with libxml2, keeping each node's line. Binary property lists
/// are read with Foundation (they have no lines to keep).
public enum PlistReader {
    /// Reads the property list at `url`; diagnostics name the file as `displayPath`.
    public static func read(contentsOf url: URL, displayPath: String) throws(PlistReadFailure) -> PlistNode {
        let location = SourceLocation(file: displayPath)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw PlistReadFailure(diagnostics: [Diagnostic(.fileMissing, "\(displayPath) is missing", at: location)])
        }
        guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: url.path) else {
            throw PlistReadFailure(diagnostics: [
                Diagnostic(.fileUnreadable, "\(displayPath) cannot be read (not a readable file)", at: location)
            ])
        }
        let magic = (try? handle.read(upToCount: 8)) ?? Data()
        try? handle.close()
        if magic.starts(with: Array("bplist".utf8)) {
            return try readBinary(url: url, location: location)
        }
        return try XMLPlistParser(displayPath: displayPath).parse(path: url.path)
    }

    /// Reads a property list from memory (used for built-in schemas and tests).
    public static func read(data: Data, displayPath: String) throws(PlistReadFailure) -> PlistNode {
        try XMLPlistParser(displayPath: displayPath).parse(data: data)
    }

    private static func readBinary(url: URL, location: SourceLocation) throws(PlistReadFailure) -> PlistNode {
        do {
            let data = try Data(contentsOf: url)
            let object = try PropertyListSerialization.propertyList(from: data, format: nil)
            return try node(from: object, location: location)
        } catch let failure as PlistReadFailure {
            throw failure
        } catch {
            throw PlistReadFailure(diagnostics: [
                Diagnostic(.malformedPlist, "binary property list cannot be read: \(error.localizedDescription)", at: location)
            ])
        }
    }

    private static func node(from object: Any, location: SourceLocation) throws(PlistReadFailure) -> PlistNode {
        switch object {
        case let s as String: return PlistNode(.string(s), line: 0)
        case let d as Date: return PlistNode(.date(d), line: 0)
        case let d as Data: return PlistNode(.data(d), line: 0)
        case let a as [Any]:
            var nodes: [PlistNode] = []
            for element in a { nodes.append(try node(from: element, location: location)) }
            return PlistNode(.array(nodes), line: 0)
        case let d as [String: Any]:
            var entries: [PlistNode.Entry] = []
            for key in d.keys.sorted() {
                entries.append(PlistNode.Entry(key: key, keyLine: 0, node: try node(from: d[key]!, location: location)))
            }
            return PlistNode(.dictionary(entries), line: 0)
        case let n as NSNumber:
            switch PlistNumber(n) {
            case .boolean(let b): return PlistNode(.boolean(b), line: 0)
            case .integer(let i): return PlistNode(.integer(i), line: 0)
            case .real(let r): return PlistNode(.real(r), line: 0)
            }
        case let b as Bool: return PlistNode(.boolean(b), line: 0)
        default:
            throw PlistReadFailure(diagnostics: [
                Diagnostic(.malformedPlist, "unsupported value in binary property list", at: location)
            ])
        }
    }
}
