import Foundation
import NewsstandCore
import NewsstandFormat

/// Writes the catalogs (`issues.plist` and the requested feeds) from every issue present in an
/// output folder, reading each issue's build manifest. A full build and `newsstand catalog`
/// over gathered per-issue outputs write identical bytes.
public struct CatalogWriter {
    public var magazine: Magazine
    public var output: URL
    public var feeds: Set<Feed>

    public init(magazine: Magazine, output: URL, feeds: Set<Feed>) {
        self.magazine = magazine
        self.output = output
        self.feeds = feeds
    }

    /// What was written.
    public struct Result: Sendable {
        public var entries: Int
        /// Warnings about the feeds' own rules.
        public var diagnostics: [Diagnostic]
    }

    /// The issue output folders in `output` that hold a build manifest, by issue name, sorted.
    public static func builtIssueFolders(in output: URL) -> [(String, URL)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        return names.sorted().compactMap { name in
            let folder = output.appendingPathComponent(name, isDirectory: true)
            return FileStatus.kind(of: BuildManifest.url(in: folder)) != nil ? (name, folder) : nil
        }
    }

    /// Writes `issues.plist` and the feeds atomically.
    public func write() throws(BuildError) -> Result {
        guard let baseURL = magazine.baseURL else {
            throw .noBaseURL
        }
        var manifests: [BuildManifest] = []
        for (name, folder) in Self.builtIssueFolders(in: output) {
            let manifest: BuildManifest?
            do {
                manifest = try BuildManifest.load(in: folder, omittingInputs: true)
            } catch {
                throw .untrustedRecord(issue: name, error, issueLeft: false)
            }
            guard let manifest, manifest.name == name else {
                throw .manifestMismatch(issue: name, path: BuildManifest.url(in: folder).path)
            }
            manifests.append(manifest)
        }
        let entries = Catalog.sorted(manifests.map { $0.catalogEntry(baseURL: baseURL) })
        var diagnostics: [Diagnostic] = []
        try writeFile("issues.plist", Catalog.encode(entries))
        if feeds.contains(.shelf) {
            try writeFile(Feed.shelf.fileName, ShelfFeed.encode(entries))
        }
        if feeds.contains(.atom) {
            let atom = AtomFeed(magazineTitle: magazine.title ?? "", baseURL: baseURL, output: output)
            diagnostics = atom.check(entries, manifests: manifests)
            try writeFile(Feed.atom.fileName, Data(atom.render(entries).utf8))
        }
        return Result(entries: entries.count, diagnostics: diagnostics)
    }

    private func writeFile(_ name: String, _ contents: Data) throws(BuildError) {
        do {
            // Best effort: the catalogs are written again from the manifests by the next build.
            try AtomicFile.write(contents, named: name, in: try OpenFolder.open(output), .bestEffort)
        } catch {
            throw .output(issue: nil, error)
        }
    }
}
