import Foundation
import NewsstandCore

/// Why a property list could not be read: every problem found, as diagnostics with lines.
public struct PlistReadFailure: Error, Sendable, Equatable {
    /// The problems, at least one.
    public var diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }
}

/// Reads property lists, XML (with libxml2, keeping each node's line) or binary, within
/// `PlistLimits`: a file over the size limit is not read at all, and values beyond the count or
/// depth limit are not kept.
public enum PlistReader {
    /// A property list as read, with the SHA-256 of the bytes it was read from (to tell later
    /// whether the file changed).
    public struct Document: Sendable {
        public var root: PlistNode
        public var sha256: String
    }

    /// Reads the property list at `url` (links followed: for files the user names, such as
    /// `magazine.plist`); diagnostics name the file as `displayPath`.
    public static func read(
        contentsOf url: URL, displayPath: String, limits: PlistLimits = .standard
    ) throws(PlistReadFailure) -> PlistNode {
        let file: OpenFile
        do {
            file = try OpenFile.open(url)
        } catch .missing {
            throw PlistReadFailure(diagnostics: [
                Diagnostic(.fileMissing, "\(displayPath) is missing", at: SourceLocation(file: displayPath))
            ])
        } catch {
            throw unreadable(displayPath, error)
        }
        return try read(file, displayPath: displayPath, limits: limits).root
    }

    /// Reads an open file.
    public static func read(
        _ file: OpenFile, displayPath: String, limits: PlistLimits = .standard
    ) throws(PlistReadFailure) -> Document {
        let data: Data?
        do {
            data = try file.readAll(limit: limits.maximumBytes)
        } catch {
            throw unreadable(displayPath, error)
        }
        guard let data else {
            throw tooLarge(displayPath, size: max(file.size, Int64(limits.maximumBytes) + 1), limits: limits)
        }
        return Document(root: try read(data: data, displayPath: displayPath, limits: limits), sha256: SHA256.hex(of: data))
    }

    /// Reads a property list from memory.
    public static func read(
        data: Data, displayPath: String, limits: PlistLimits = .standard
    ) throws(PlistReadFailure) -> PlistNode {
        guard data.count <= limits.maximumBytes else { throw tooLarge(displayPath, size: Int64(data.count), limits: limits) }
        if data.starts(with: Array("bplist".utf8)) {
            return try BinaryPlistParser(displayPath: displayPath, limits: limits).parse(data: data)
        }
        return try XMLPlistParser(displayPath: displayPath, limits: limits).parse(data: data)
    }

    private static func tooLarge(_ displayPath: String, size: Int64, limits: PlistLimits) -> PlistReadFailure {
        PlistReadFailure(diagnostics: [
            Diagnostic(
                .plistTooLarge,
                "\((displayPath as NSString).lastPathComponent) is \(PlistLimits.grouped(Int(size))) bytes; a property list may be at most \(PlistLimits.grouped(limits.maximumBytes)) bytes (\(PlistLimits.size(Int64(limits.maximumBytes))))",
                at: SourceLocation(file: displayPath))
        ])
    }

    private static func unreadable(_ displayPath: String, _ failure: FileSystemError) -> PlistReadFailure {
        PlistReadFailure(diagnostics: [
            Diagnostic(.fileUnreadable, "\(displayPath) cannot be read: \(failure.reason)", at: SourceLocation(file: displayPath))
        ])
    }
}
