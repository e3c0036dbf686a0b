import Foundation
import NewsstandFormat

/// What a publish will do: upload changed bundles and covers, then replace changed catalogs,
/// then (with `--prune`) delete files that no current catalog refers to.
public struct PublishPlan: Sendable {
    /// Every file of the built magazine.
    public var files: [PublishedFile]
    /// Bundles and covers to upload, in order.
    public var uploads: [PublishedFile]
    /// Catalogs to replace, last.
    public var catalogs: [PublishedFile]
    /// Paths a previous publish put at the destination that are no longer part of the magazine.
    public var stale: [String]
    /// How many files are already at the destination, unchanged.
    public var unchanged: Int
    /// What the destination held before.
    public var remote: PublishManifest?

    /// The catalog files a build writes, in the order they are replaced.
    public static let catalogNames = ["issues.plist", "shelf.json", "atom.xml"]

    /// Lists a built folder's files (from each issue's build manifest and the catalogs) and
    /// compares them with what the destination holds.
    public static func make(builtFolder: URL, remote: PublishManifest?) throws(PublishError) -> PublishPlan {
        var files: [PublishedFile] = []
        let issues = CatalogWriter.builtIssueFolders(in: builtFolder)
        guard FileManager.default.fileExists(atPath: builtFolder.appendingPathComponent("issues.plist").path) else {
            throw PublishError(step: "plan", target: builtFolder.path, reason: "no issues.plist: run 'newsstand build' first")
        }
        for (name, folder) in issues {
            guard let manifest = BuildManifest.read(in: folder) else {
                throw PublishError(
                    step: "plan", target: folder.path, reason: "the build manifest is unreadable; rebuild the issue")
            }
            for record in [manifest.bundle, manifest.retinaBundle, manifest.cover, manifest.retinaCover] {
                let source = folder.appendingPathComponent(record.file)
                guard (try? FileStatus.of(source))?.size == record.size else {
                    throw PublishError(step: "plan", target: source.path, reason: "missing or changed since the build; rebuild")
                }
                files.append(
                    PublishedFile(
                        path: "\(name)/\(record.file)", source: source, size: record.size, sha256: record.sha256, isCatalog: false
                    ))
            }
        }
        for name in catalogNames {
            let source = builtFolder.appendingPathComponent(name)
            guard let status = try? FileStatus.of(source) else { continue }
            do {
                let sha = try SHA256.hex(ofFileAt: source)
                files.append(PublishedFile(path: name, source: source, size: status.size, sha256: sha, isCatalog: true))
            } catch {
                throw PublishError(step: "plan", target: source.path, reason: error.localizedDescription)
            }
        }
        let known = remote?.files ?? [:]
        let changed = files.filter { known[$0.path] != PublishManifest.File(size: $0.size, sha256: $0.sha256) }
        let current = Set(files.map(\.path))
        let stale = Set(known.keys).union(remote?.retired ?? []).subtracting(current)
        return PublishPlan(
            files: files, uploads: changed.filter { !$0.isCatalog }, catalogs: changed.filter(\.isCatalog),
            stale: stale.sorted(), unchanged: files.count - changed.count, remote: remote)
    }

    /// The manifest describing the destination once this plan has run.
    public func resultingManifest(pruned: Bool) -> PublishManifest {
        PublishManifest(
            files: Dictionary(
                uniqueKeysWithValues: files.map { ($0.path, PublishManifest.File(size: $0.size, sha256: $0.sha256)) }),
            retired: pruned ? [] : stale)
    }
}
