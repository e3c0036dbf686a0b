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
    /// The time an Atom entry whose metadata changed (or whose record is missing) is given.
    public var now: Date
    /// Whether to check the Newsstand feed's rules on the built issues (`newsstand catalog`,
    /// which validates nothing; a build has checked them while validating).
    public var checksFeedRules: Bool
    /// The build index: manifests are taken from it while unchanged, and `issues.plist` and
    /// `shelf.json` are not written again when their entries and bytes are as it recorded
    /// (nil: every manifest is read and every catalog written, as `newsstand catalog` does).
    public var index: BuildIndex?
    /// Issues whose manifests this build wrote: read without remembering them in the index.
    public var justBuilt: Set<String>

    public init(
        magazine: Magazine, output: URL, feeds: Set<Feed>, now: Date = Date(), checksFeedRules: Bool = false,
        index: BuildIndex? = nil,
        justBuilt: Set<String> = []
    ) {
        self.magazine = magazine
        self.output = output
        self.feeds = feeds
        self.now = now
        self.checksFeedRules = checksFeedRules
        self.index = index
        self.justBuilt = justBuilt
    }

    /// What was written.
    public struct Result: Sendable {
        public var entries: Int
        /// Warnings about the feeds' own rules (when `checksFeedRules`).
        public var diagnostics: [Diagnostic]
        /// Feed records that could not be trusted or kept, and why.
        public var warnings: [String]
    }

    /// The issue output folders in `output` that hold a build manifest, by issue name, sorted.
    public static func builtIssueFolders(in output: URL) -> [(String, URL)] {
        builtIssues(in: output).map { ($0.name, $0.folder(in: output)) }
    }

    /// An issue output folder that holds a build manifest, and the manifest's identity (links
    /// followed, as the catalog reads them; nil when it is not a regular file).
    struct BuiltIssue {
        var name: String
        var identity: FileIdentity?

        /// The folder, made only when a manifest is read (a URL per issue was 2% of a
        /// no-change build, which reads none).
        func folder(in output: URL) -> URL { output.appendingPathComponent(name, isDirectory: true) }
    }

    /// `builtIssueFolders(in:)` with each manifest's identity, from the one `stat` that finds it.
    static func builtIssues(in output: URL) -> [BuiltIssue] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: output.path)) ?? []
        // The manifest's path joined as text: three URLs per issue were 3% of a no-change build.
        let base = output.path.hasSuffix("/") ? output.path : output.path + "/"
        return names.sorted().compactMap { name in
            let manifest = base + name + "/" + BuildManifest.folderName + "/" + BuildManifest.fileName
            if let identity = FileIdentity.of(path: manifest) { return BuiltIssue(name: name, identity: identity) }
            // Something else than a regular file is there: reading it says what is wrong.
            guard (try? FileStatus.of(manifest, followingLinks: true)) != nil else { return nil }
            return BuiltIssue(name: name, identity: nil)
        }
    }

    /// Writes `issues.plist` and the feeds atomically.
    public func write() throws(BuildError) -> Result {
        guard let baseURL = magazine.baseURL else {
            throw .noBaseURL
        }
        let built = Self.builtIssues(in: output)
        let sources = index.flatMap { index in
            CatalogSources.key(of: built.map { ($0.name, $0.identity) }, baseURL: baseURL) { index.isSettled($0) }
        }
        if let index, let sources, let unchanged = unchangedCatalogs(built, sources: sources, index: index) {
            return unchanged
        }
        var manifests: [BuildManifest] = []
        for issue in built {
            let (name, folder) = (issue.name, issue.folder(in: output))
            let manifest: BuildManifest?
            do {
                if let index {
                    manifest = try index.manifest(
                        at: folder, name: name, omittingInputs: true, remembering: !justBuilt.contains(name),
                        identity: issue.identity)
                } else {
                    manifest = try BuildManifest.load(in: folder, omittingInputs: true)
                }
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
        var warnings: [String] = []
        try writeUnlessUnchanged("issues.plist", digest: CatalogDigest.of("issues.plist", entries: entries), sources: sources) {
            Catalog.encode(entries)
        }
        if feeds.contains(.shelf) {
            let books = Dictionary(
                uniqueKeysWithValues: manifests.compactMap { m in m.bookURL(baseURL: baseURL).map { (m.name, $0) } })
            let digest = CatalogDigest.of(ShelfFeed.fileName, entries: entries, books: books)
            try writeUnlessUnchanged(ShelfFeed.fileName, digest: digest, sources: sources) {
                ShelfFeed.encode(entries, books: books)
            }
        }
        if feeds.contains(.atom) || feeds.contains(.opds) {
            let timed = timedEntries(entries, manifests: manifests, warnings: &warnings)
            if feeds.contains(.atom) {
                if checksFeedRules {
                    diagnostics = checkRules(manifests)
                }
                try writeAtom(timed, baseURL: baseURL)
            }
            if feeds.contains(.opds) {
                try writeOPDS(timed, baseURL: baseURL, warnings: &warnings)
            }
        }
        return Result(entries: entries.count, diagnostics: diagnostics, warnings: warnings)
    }

    /// The Newsstand feed's rules on built issues: the manifest's summary and the `@2x` cover in
    /// the output (read through links, like the manifests: a gathered output may link them).
    private func checkRules(_ manifests: [BuildManifest]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for manifest in manifests {
            let at = SourceLocation(file: Magazine.displayPath(issue: manifest.name, "issue.plist"))
            if let message = AtomFeedRules.summaryProblem(manifest.metadata.summary, issue: manifest.name) {
                diagnostics.append(Diagnostic(.feedSummary, message, at: at))
            }
            let cover = output.appendingPathComponent(manifest.name).appendingPathComponent(manifest.retinaCover.file)
            let probe = (try? OpenFile.open(cover)).map(ImageSize.probe)
            if let message = AtomFeedRules.coverProblem(probe, file: manifest.retinaCover.file, issue: manifest.name) {
                diagnostics.append(Diagnostic(.feedCover, message, at: at))
            }
        }
        return diagnostics
    }

    /// The result of a build whose `issues.plist` (and `shelf.json`, when asked for) are up to
    /// date without reading a manifest: each was recorded as made from the same `sources`
    /// (`CatalogSources`) and still holds the bytes recorded. Nil when not (then the catalogs
    /// are made from the manifests). Not for the Atom and OPDS feeds, which keep records of
    /// their own.
    private func unchangedCatalogs(_ built: [BuiltIssue], sources: String, index: BuildIndex) -> Result? {
        guard !feeds.contains(.atom), !feeds.contains(.opds) else { return nil }
        let files = ["issues.plist"] + (feeds.contains(.shelf) ? [ShelfFeed.fileName] : [])
        var records: [BuildIndex.CatalogRecord] = []
        for file in files {
            guard let recorded = index.catalogRecord(file), recorded.sources == sources, holdsRecordedBytes(recorded) else {
                return nil
            }
            records.append(recorded)
        }
        for record in records { index.record(record) }
        for issue in built {
            if let identity = issue.identity { index.carry(issue.name, identity: identity) }
        }
        return Result(entries: built.count, diagnostics: [], warnings: [])
    }

    /// Whether the catalog file `recorded` names is a regular file of the recorded size and
    /// XXH3 (read again each time: an edited, replaced or deleted catalog is written again,
    /// however its times were set).
    private func holdsRecordedBytes(_ recorded: BuildIndex.CatalogRecord) -> Bool {
        guard let folder = try? OpenFolder.open(output), let file = try? folder.file(recorded.file),
            file.size == recorded.size
        else { return false }
        let hasher = XXH3()
        return (try? FileCopy.copy(file, to: nil, observe: { hasher.update($0) })) == recorded.size
            && hasher.finalizeHex() == recorded.xxh3
    }

    /// Writes the catalog file `name` unless the index recorded writing it from entries of the
    /// same `digest` and the file still holds the recorded bytes (`holdsRecordedBytes`).
    /// `sources` is recorded with it (`CatalogSources`; nil when a manifest was not settled).
    /// Without an index, always writes.
    func writeUnlessUnchanged(
        _ name: String, digest: String, sources: String? = nil, _ contents: () -> Data
    ) throws(BuildError) {
        guard let index else { return try writeFile(name, contents()) }
        if var recorded = index.catalogRecord(name), recorded.digest == digest, holdsRecordedBytes(recorded) {
            recorded.sources = sources ?? ""
            index.record(recorded)
            return
        }
        let data = contents()
        try writeFile(name, data)
        index.record(
            BuildIndex.CatalogRecord(
                file: name, digest: digest, size: Int64(data.count), xxh3: XXH3.hex(of: data), sources: sources ?? ""))
    }

    /// Writes a catalog file, with a modification time in a later second than the file it
    /// replaces: static servers derive `ETag` and `Last-Modified` from the size and the
    /// modification time in whole seconds (nginx: `"<mtime hex>-<size hex>"`), so a catalog
    /// rewritten within the same second at the same size (the usual case: only hashes and
    /// content-named URLs change) would keep the old validators, and a reader that fetched the
    /// old one would be answered `304 Not Modified` for the new one from then on.
    func writeFile(_ name: String, _ contents: Data) throws(BuildError) {
        do throws(FileSystemError) {
            let folder = try OpenFolder.open(output)
            let previous = folder.status(of: name)
            // Best effort: the catalogs are written again from the manifests by the next build.
            let pending = try AtomicFile.create(named: name, in: folder)
            do throws(FileSystemError) {
                try pending.file.write(contents)
                if let previous, previous.kind == .regularFile {
                    try CatalogTimes.moveOnIfNeeded(pending.file, after: previous.modified, path: pending.temporaryPath)
                }
            } catch {
                pending.discard()
                throw error
            }
            try pending.commit(.bestEffort)
        } catch {
            throw .output(issue: nil, error)
        }
    }
}
