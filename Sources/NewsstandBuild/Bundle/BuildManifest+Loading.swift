import Foundation
import NewsstandCore
import NewsstandFormat

/// Why a build record (`manifest.json`, `written.json`) in an output folder is not trusted;
/// every case names the record.
public enum BuildRecordError: Error, Sendable, Equatable, CustomStringConvertible {
    /// It cannot be read (a link, a folder, a system error).
    case unreadable(FileSystemError)
    /// It is larger than a record newsstand writes (`limit` bytes).
    case tooLarge(path: String, limit: Int)
    /// It does not decode as a record.
    case undecodable(path: String, kind: String)
    /// It lists a name that is not a plain file name (`..`, `/`, hidden, …): nothing it lists is acted on.
    case unsafeName(path: String, name: String)
    /// It lists an input that is not a file of an issue.
    case unsafeInput(path: String, input: String)

    /// The record's path.
    public var path: String {
        switch self {
        case .unreadable(let error): error.path
        case .tooLarge(let path, _), .undecodable(let path, _), .unsafeName(let path, _), .unsafeInput(let path, _): path
        }
    }

    /// What is wrong with it.
    public var reason: String {
        switch self {
        case .unreadable(let error): "cannot be read: \(error.reason)"
        case .tooLarge(_, let limit): "is larger than \(PlistLimits.size(Int64(limit))); newsstand never writes one that large"
        case .undecodable(_, let kind): "is not a \(kind) newsstand can read"
        case .unsafeName(_, let name):
            "lists \(SourceText.quoted(name)), which is not a plain file name; newsstand does not act on it"
        case .unsafeInput(_, let input):
            "lists the input \(SourceText.quoted(input)), which is not a file of an issue; newsstand does not act on it"
        }
    }

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
        try load(in: issueOutput, omittingInputs: false)
    }

    /// As `load(in:)`; with `omittingInputs`, without decoding `inputs` and `validation` (left
    /// empty and nil): what the catalog needs, at a fraction of the cost (decoding every
    /// input record of every issue twice was 40% of a no-change build of 500 issues).
    public static func load(in issueOutput: URL, omittingInputs: Bool) throws(BuildRecordError) -> BuildManifest? {
        let url = url(in: issueOutput)
        let file: OpenFile
        do {
            file = try OpenFile.open(url)
        } catch .missing {
            return nil
        } catch {
            throw .unreadable(error)
        }
        return try decode(file, path: url.path, omittingInputs: omittingInputs)
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
            throw .unreadable(error)
        }
        return try decode(file, path: path)
    }

    static func decode(_ file: OpenFile, path: String, omittingInputs: Bool = false) throws(BuildRecordError) -> BuildManifest {
        let data: Data?
        do {
            data = try file.readAll(limit: maximumBytes)
        } catch {
            throw .unreadable(error)
        }
        guard let data else { throw .tooLarge(path: path, limit: maximumBytes) }
        let decoded: BuildManifest?
        if omittingInputs {
            decoded = (try? JSONDecoder().decode(Outputs.self, from: data))?.manifest
        } else {
            decoded = try? JSONDecoder().decode(BuildManifest.self, from: data)
        }
        guard let manifest = decoded else {
            throw .undecodable(path: path, kind: "build manifest")
        }
        try checkNames(of: manifest, path: path)
        return manifest
    }

    /// Refuses a manifest (read from `path`, or from the build index) that names an output,
    /// input, cover or asset that is not a plain file name: nothing is acted on at its word.
    static func checkNames(of manifest: BuildManifest, path: String) throws(BuildRecordError) {
        for name in manifest.outputs.map(\.file) where !SafeRelativePath.isSafeComponent(name) {
            throw .unsafeName(path: path, name: name)
        }
        for input in manifest.inputs where !Self.isInputPath(input.path) {
            throw .unsafeInput(path: path, input: input.path)
        }
        // Names a reused validation would open or write: the cover (copied beside the bundles)
        // and every bundled asset, in both sizes.
        let cover = manifest.metadata.cover
        var names = [cover, RetinaName.of(cover)]
        for asset in manifest.validation?.assets ?? [] { names += [asset.name, asset.fileName(retina: true)] }
        names += manifest.validation?.derived ?? []
        for name in names where !SafeRelativePath.isSafeComponent(name) {
            throw .unsafeName(path: path, name: name)
        }
    }

    /// `issue.plist`, `pages.plist` or `assets/<plain file name>`.
    private static func isInputPath(_ path: String) -> Bool {
        if path == "issue.plist" || path == "pages.plist" { return true }
        guard path.hasPrefix("assets/") else { return false }
        return SafeRelativePath.isSafeComponent(String(path.dropFirst("assets/".count)))
    }
}

/// A manifest's members but `inputs` and `validation` (see `BuildManifest.load(in:omittingInputs:)`).
private struct Outputs: Decodable {
    var toolVersion: String
    var name: String
    var metadata: IssueMetadata
    var bundle: OutputRecord
    var retinaBundle: OutputRecord
    var cover: OutputRecord
    var retinaCover: OutputRecord
    var index: OutputRecord?
    var retinaIndex: OutputRecord?
    var hpub: OutputRecord?
    var epub: OutputRecord?
    var epubKey: String?
    var isVersioned: Bool
    var optimized: Bool?

    var manifest: BuildManifest {
        BuildManifest(
            toolVersion: toolVersion, name: name, metadata: metadata, inputs: [], bundle: bundle, retinaBundle: retinaBundle,
            cover: cover, retinaCover: retinaCover, index: index, retinaIndex: retinaIndex, hpub: hpub, epub: epub,
            epubKey: epubKey, isVersioned: isVersioned, optimized: optimized, validation: nil)
    }
}
