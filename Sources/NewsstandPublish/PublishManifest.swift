import Foundation
import NewsstandBuild
import NewsstandCore

/// What a destination holds from earlier publishes, kept there as `.newsstand-publish.json`:
/// every file of the last complete publish with its size and SHA-256 (so the next publish
/// uploads only what changed), and the files publishes put there that no catalog refers to any
/// more (so `--prune` deletes those and nothing else).
///
/// It is read back from the destination, where anyone with write access may have changed it:
/// it is capped in size, every name in it must be a `SafeRelativePath`, and one that is not, or
/// a file that does not decode, stops the publish with an error naming the entry; nothing is
/// uploaded, replaced or deleted on its word.
public struct PublishManifest: Sendable, Codable, Equatable {
    /// A published file's identity.
    public struct File: Sendable, Codable, Equatable {
        public var size: Int64
        public var sha256: String

        public init(size: Int64, sha256: String) {
            self.size = size
            self.sha256 = sha256
        }
    }

    /// Files by path relative to the destination's root.
    public var files: [String: File]
    /// Files publishes put there that no catalog refers to any more (older versions, removed
    /// issues, and uploads of a publish that failed before its catalog was in place); `--prune`
    /// deletes them, and nothing else at the destination is ever deleted.
    public var retired: [String]
    /// True when the destination holds a web edition (`newsstand preview`'s output), absent for
    /// a magazine: the one kind is never published over the other.
    public var webEdition: Bool?

    /// The manifest's path at the destination.
    public static let path = ".newsstand-publish.json"
    /// The largest state file read: about 16 bytes of JSON per byte of name, so room for the
    /// files of some 50,000 issues.
    public static let sizeLimit: Int64 = 16 << 20

    public init(files: [String: File], retired: [String] = [], webEdition: Bool = false) {
        self.files = files
        self.retired = retired
        self.webEdition = webEdition ? true : nil
    }

    /// Whether the destination holds a web edition.
    public var holdsWebEdition: Bool { webEdition == true }

    /// Every path the manifest records as ours, whether a catalog refers to it or not.
    public var recordedPaths: Set<String> { Set(files.keys).union(retired) }

    func encoded() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Strings and numbers always encode.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Decodes and checks a state file read from `source` (for messages).
    public static func decode(_ data: Data, source: String) throws(PublishError) -> PublishManifest {
        let manifest: PublishManifest
        do { manifest = try JSONDecoder().decode(PublishManifest.self, from: data) } catch {
            throw PublishError(step: "plan", target: source, reason: .invalid(invalidText(error)))
        }
        for (path, file) in manifest.files.sorted(by: { $0.key < $1.key }) {
            if let problem = SafeRelativePath.problem(in: path) {
                throw PublishError(
                    step: "plan", target: source, reason: .unsafeName(entry: "files key", name: path, problem: problem))
            }
            guard file.size >= 0, SHA256.isHex(file.sha256) else {
                throw PublishError(
                    step: "plan", target: source,
                    reason: .invalid("files[\(SafeRelativePath.quoted(path))] has an impossible size or SHA-256\(repair)"))
            }
        }
        for (index, path) in manifest.retired.enumerated() {
            if let problem = SafeRelativePath.problem(in: path) {
                throw PublishError(
                    step: "plan", target: source, reason: .unsafeName(entry: "retired[\(index)]", name: path, problem: problem))
            }
        }
        return manifest
    }

    /// What to do about a state file that cannot be used.
    static let repair =
        "; if it is damaged, delete it: the next publish then uploads every file again, and --prune forgets files that earlier publishes left there"

    private static func invalidText(_ error: Error) -> String {
        let detail: String
        switch error {
        case DecodingError.dataCorrupted(let context): detail = context.debugDescription
        case DecodingError.keyNotFound(let key, _): detail = "'\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            detail = "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: detail = "\(error)"
        }
        return "not a publish state file (\(detail))\(repair)"
    }
}

/// A file of a built magazine, ready to publish.
public struct PublishedFile: Sendable, Equatable {
    /// Path relative to the built folder and the destination (`a-1/a-1.zip`).
    public var path: String
    /// The local file, with the size and SHA-256 it must have.
    public var source: UploadSource
    public var size: Int64 { source.size }
    public var sha256: String { source.sha256 }
    /// Catalogs go last and are replaced atomically.
    public var isCatalog: Bool

    /// The identity recorded in the publish state.
    var record: PublishManifest.File { PublishManifest.File(size: size, sha256: sha256) }
}
