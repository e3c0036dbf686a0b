import Foundation
import NewsstandBuild
import NewsstandCore

/// What a publish will do: upload changed bundles and covers, then switch the changed files the
/// served catalog may refer to and the catalogs, then (with `--prune`) delete files that no
/// current catalog refers to.
public struct PublishPlan: Sendable {
    /// Every file of the built magazine.
    public var files: [PublishedFile]
    /// Bundles and covers to upload straight under their names: no file an earlier publish put
    /// there is at those names (content-versioned names, new issues).
    public var uploads: [PublishedFile]
    /// Bundles and covers that replace a file an earlier publish put there, which the served
    /// catalog may refer to (fixed names): uploaded under temporary names, then swapped in just
    /// before the catalogs, with the old file kept aside until the catalogs are in place.
    public var swaps: [PublishedFile]
    /// Catalogs to replace, last.
    public var catalogs: [PublishedFile]
    /// Paths earlier publishes put at the destination that are no longer part of the magazine.
    public var stale: [String]
    /// How many files are already at the destination, unchanged.
    public var unchanged: Int
    /// What the destination held before.
    public var remote: PublishManifest?
    /// Where readers fetch the built `issues.plist` (its entries' `BaseURL` + `issues.plist`);
    /// nil when it lists no issue.
    public var catalogURL: URL?
    /// Whether this publishes a web edition (`newsstand preview`'s output: its index page is
    /// the catalog, `catalogURL` is `PreviewURL` + `index.html`) rather than a build.
    public var isWebEdition = false

    /// The catalog files a build writes, in the order they are replaced.
    public static let catalogNames = BuiltMagazine.catalogNames

    /// Lists a built folder's files (from each issue's build manifest and the catalogs) and
    /// compares them with what the destination holds. `servedCatalog` says whether the
    /// destination serves a catalog already (it matters only when there is no `remote` state:
    /// then any file may be one that catalog refers to); `servedIndexPage`, a web edition's
    /// index page. A destination holding the other kind (a magazine where a web edition goes,
    /// or the reverse) is refused: each would take the other's files for stale.
    public static func make(
        builtFolder: URL, remote: PublishManifest?, servedCatalog: Bool = true, servedIndexPage: Bool = true
    ) throws(PublishError) -> PublishPlan {
        let built = try BuiltMagazine.read(builtFolder)
        let kinds = (magazine: "a magazine published by newsstand", webEdition: "a web edition (newsstand preview's output)")
        let found: String? =
            if let remote {
                remote.holdsWebEdition == built.isWebEdition ? nil : (remote.holdsWebEdition ? kinds.webEdition : kinds.magazine)
            } else {
                built.isWebEdition && servedCatalog ? "a magazine's issues.plist" : nil
            }
        if let found {
            throw PublishError(
                step: "plan", target: PublishManifest.path,
                reason: .otherPublishThere(found: found, publishing: built.isWebEdition ? kinds.webEdition : kinds.magazine))
        }
        let servesCatalog = built.isWebEdition ? servedIndexPage : servedCatalog
        let files = built.files
        let known = remote?.files ?? [:]
        let changed = files.filter { known[$0.path] != $0.record }
        let recorded = remote?.recordedPaths ?? []
        let replacesServed: (PublishedFile) -> Bool = { file in
            remote == nil ? servesCatalog : recorded.contains(file.path)
        }
        let current = Set(files.map(\.path))
        let stale = recorded.subtracting(current)
        let bundles = changed.filter { !$0.isCatalog }
        return PublishPlan(
            files: files, uploads: bundles.filter { !replacesServed($0) }, swaps: bundles.filter(replacesServed),
            catalogs: changed.filter(\.isCatalog), stale: stale.sorted(), unchanged: files.count - changed.count,
            remote: remote, catalogURL: built.catalogURL, isWebEdition: built.isWebEdition)
    }

    /// Whether running the plan changes nothing at the destination (but pruning may).
    public var isEmpty: Bool { uploads.isEmpty && swaps.isEmpty && catalogs.isEmpty }

    /// The state recorded before the first upload: what was there, plus the files about to be
    /// uploaded under their own names, as retired (no catalog refers to them yet). A publish
    /// that fails part-way thus never leaves a file behind that `--prune` does not know.
    func intentManifest() -> PublishManifest? {
        let recorded = remote?.recordedPaths ?? []
        let fresh = uploads.map(\.path).filter { !recorded.contains($0) }
        guard !fresh.isEmpty else { return nil }
        return PublishManifest(
            files: remote?.files ?? [:], retired: Array(Set(remote?.retired ?? []).union(fresh)).sorted(),
            webEdition: isWebEdition)
    }

    /// The manifest describing the destination once this plan has run.
    public func resultingManifest(pruned: Bool) -> PublishManifest {
        PublishManifest(
            files: Dictionary(files.map { ($0.path, $0.record) }, uniquingKeysWith: { first, _ in first }),
            retired: pruned ? [] : stale, webEdition: isWebEdition)
    }
}
