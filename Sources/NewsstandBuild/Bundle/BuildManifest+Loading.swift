import Foundation
import NewsstandCore
import NewsstandFormat

/// Why a build record (`manifest.json`, `written.json`) in an output folder is not trusted.
public struct BuildRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The record's path.
    public var path: String
    /// What is wrong with it.
    public var reason: String

    public var description: String { "\(path): \(reason)" }
}

extension BuildManifest {
    /// The largest manifest read (an issue of 10,000 assets has a manifest of about 2 MB).
    public static let maximumBytes = 16 << 20

    /// Reads the manifest in an issue's output folder: nil when there is none; an error when
    /// it is unreadable or names a file that is not a plain file name in the folder (`..`,
    /// `/`, an absolute path, a backslash, a hidden name: `SafeRelativePath.isSafeComponent`). A record that lies is not used at
    /// all, so nothing is ever read, written or deleted on its word. Links on the way are
    /// followed: this is for reading (the catalog); removal goes through `load(from:)`.
    public static func load(in issueOutput: URL) throws(BuildRecordError) -> BuildManifest? {
        let url = url(in: issueOutput)
        let file: OpenFile
        do {
            file = try OpenFile.open(url)
        } catch .missing {
            return nil
        } catch {
            throw BuildRecordError(path: url.path, reason: "cannot be read: \(error.reason)")
        }
        return try decode(file, path: url.path)
    }

    /// Reads the manifest in an open issue output folder, links not followed.
    static func load(from issueOutput: OpenFolder) throws(BuildRecordError) -> BuildManifest? {
        let path = issueOutput.path(of: "\(folderName)/\(fileName)")
        let file: OpenFile
        do {
            file = try issueOutput.folder(folderName).file(fileName)
        } catch .missing {
            return nil
        } catch {
            throw BuildRecordError(path: path, reason: "cannot be read: \(error.reason)")
        }
        return try decode(file, path: path)
    }

    private static func decode(_ file: OpenFile, path: String) throws(BuildRecordError) -> BuildManifest {
        let data: Data?
        do {
            data = try file.readAll(limit: maximumBytes)
        } catch {
            throw BuildRecordError(path: path, reason: "cannot be read: \(error.reason)")
        }
        guard let data else {
            throw BuildRecordError(path: path, reason: "is larger than \(PlistLimits.size(Int64(maximumBytes))); newsstand never writes one that large")
        }
        guard let manifest = try? JSONDecoder().decode(BuildManifest.self, from: data) else {
            throw BuildRecordError(path: path, reason: "is not a build manifest newsstand can read")
        }
        for name in manifest.outputs.map(\.file) where !SafeRelativePath.isSafeComponent(name) {
            throw BuildRecordError(path: path, reason: "lists \(SourceText.quoted(name)), which is not a plain file name; newsstand does not act on it")
        }
        for input in manifest.inputs where !Self.isInputPath(input.path) {
            throw BuildRecordError(path: path, reason: "lists the input \(SourceText.quoted(input.path)), which is not a file of an issue; newsstand does not act on it")
        }
        return manifest
    }

    /// `issue.plist`, `pages.plist` or `assets/<plain file name>`.
    private static func isInputPath(_ path: String) -> Bool {
        if path == "issue.plist" || path == "pages.plist" { return true }
        guard path.hasPrefix("assets/") else { return false }
        return SafeRelativePath.isSafeComponent(String(path.dropFirst("assets/".count)))
    }
}
