import Foundation

/// What a destination holds from the last publish: every file's size and SHA-256, kept at the
/// destination as `.newsstand-publish.json` so that the next publish uploads only what changed
/// and `--prune` deletes only files a publish put there.
public struct PublishManifest: Sendable, Codable, Equatable {
    /// A published file's identity.
    public struct File: Sendable, Codable, Equatable {
        public var size: Int64
        public var sha256: String
    }

    /// Files by path relative to the destination's root.
    public var files: [String: File]
    /// Files an earlier publish put there that no catalog refers to any more; `--prune`
    /// deletes them (and only them: nothing else at the destination is ever deleted).
    public var retired: [String]

    /// The manifest's path at the destination.
    public static let path = ".newsstand-publish.json"

    public init(files: [String: File], retired: [String] = []) {
        self.files = files
        self.retired = retired
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}

/// A file of a built magazine, ready to publish.
public struct PublishedFile: Sendable, Equatable {
    /// Path relative to the built folder and the destination (`a-1/a-1.zip`).
    public var path: String
    public var source: URL
    public var size: Int64
    public var sha256: String
    /// Catalogs go last and are replaced atomically.
    public var isCatalog: Bool
}
