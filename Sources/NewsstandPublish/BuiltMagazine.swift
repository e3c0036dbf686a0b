import Foundation
import NewsstandBuild
import NewsstandCore

/// The files of a built folder, as publish reads them: without trusting the folder. Every path
/// is walked without following links (`OpenFolder`); each issue's build manifest is capped
/// in size, and the names in it must be plain file names (`SafeRelativePath.isSafeComponent`);
/// the catalog must describe exactly the files the manifests list, so that what goes live is
/// consistent before the first byte is sent.
struct BuiltMagazine {
    /// The issues' bundles, their indexes and covers (each issue's in `BuildManifest.outputs`
    /// order, at `BuildManifest.outputPaths`: a paid issue's content under `paid/<name>/`), then
    /// the catalogs.
    var files: [PublishedFile]
    /// Where readers fetch `issues.plist`: the catalog's base URL (its entries' `BaseURL`) +
    /// `issues.plist`; nil for a catalog with no entries. For a web edition: its `PreviewURL` +
    /// `index.html`, nil when the preview was written without one.
    var catalogURL: URL?
    /// Whether this is a web edition (`newsstand preview`'s output) rather than a build.
    var isWebEdition = false

    /// The largest build manifest read (it lists an issue's inputs: about 250 bytes each).
    static let manifestLimit: Int64 = 16 << 20
    /// The largest catalog read to check it (about 1 KB per issue).
    static let catalogLimit: Int64 = 64 << 20
    /// The catalog files a build writes, in the order they are replaced.
    static let catalogNames = ["issues.plist"] + Feed.catalogFileNames

    static func read(_ builtFolder: URL) throws(PublishError) -> BuiltMagazine {
        let folder = try PublishFiles.open(builtFolder, create: false, step: "plan")
        guard case .regularFile? = try PublishFiles.status(at: "issues.plist", in: folder, step: "plan")?.kind else {
            if let edition = try webEdition(in: folder, builtFolder: builtFolder) { return edition }
            throw PublishError(
                step: "plan", target: folder.path(at: "issues.plist"),
                reason: .notBuilt)
        }
        var files: [PublishedFile] = []
        var manifests: [String: BuildManifest] = [:]
        for name in try issueFolders(in: folder) {
            let manifest = try manifest(of: name, in: folder)
            manifests[name] = manifest
            // A paid issue's bundles, indexes, book and EPUB are in paid/<name>, its covers in <name>.
            for (path, record) in manifest.outputPaths {
                let source = UploadSource(folder: builtFolder, path: path, size: record.size, sha256: record.sha256)
                guard let file = try PublishFiles.file(at: path, in: folder, step: "plan") else {
                    throw PublishError(
                        step: "plan", target: folder.path(at: path), reason: .changedSinceBuild("the file is missing"))
                }
                guard file.size == record.size else {
                    throw PublishError(
                        step: "plan", target: folder.path(at: path),
                        reason: .changedSinceBuild("it has \(file.size) bytes, the build manifest says \(record.size)"))
                }
                files.append(PublishedFile(path: path, source: source, isCatalog: false))
            }
        }
        let baseURL = try checkCatalog(in: folder, against: manifests)
        if baseURL?.absoluteString == Magazine.placeholderBaseURL {
            throw PublishError(step: "plan", target: folder.path(at: "issues.plist"), reason: .placeholderBaseURL)
        }
        try checkFeed(in: folder, against: files)
        for name in catalogNames {
            guard let file = try PublishFiles.file(at: name, in: folder, step: "plan") else { continue }
            let sha256: String
            let read: Int64
            do {
                let hasher = SHA256()
                read = try FileCopy.copy(file, to: nil, limit: file.size) { hasher.update($0) }
                sha256 = hasher.finalizeHex()
            } catch {
                throw .fileSystem("plan", error)
            }
            guard read == file.size else {
                throw PublishError(step: "plan", target: folder.path(at: name), reason: .changedWhileRead)
            }
            files.append(
                PublishedFile(
                    path: name, source: UploadSource(folder: builtFolder, path: name, size: file.size, sha256: sha256),
                    isCatalog: true))
        }
        return BuiltMagazine(files: files, catalogURL: baseURL.map { $0.appendingPathComponent("issues.plist") })
    }

    /// The issue folders (those holding a build manifest), sorted. A link where an issue folder
    /// could be, or an unsafe name, is an error: the catalog may list it, and publishing a
    /// catalog without its files would break it.
    private static func issueFolders(in folder: OpenFolder) throws(PublishError) -> [String] {
        let entries: [FolderEntry]
        do { entries = try folder.entries() } catch { throw .fileSystem("plan", error) }
        var issues: [String] = []
        // Names that are not UTF-8 cannot be in a catalog: passed over, as before.
        for name in entries.compactMap(\.name).sorted() where !name.hasPrefix(".") {
            switch folder.kind(of: name) {
            case .folder?:
                guard
                    case .regularFile? = try PublishFiles.status(
                        at: "\(name)/.newsstand/manifest.json", in: folder, step: "plan")?.kind
                else { continue }
                guard IssueName.isSafe(name) else {
                    let problem = SafeRelativePath.componentProblem(name) ?? .control
                    throw PublishError(
                        step: "plan", target: folder.path,
                        reason: .unsafeName(entry: "issue folder", name: name, problem: problem))
                }
                // Its files would share the URLs of paid issues' content (a build refuses the name).
                guard !IssueAccess.isReserved(name) else {
                    throw PublishError(
                        step: "plan", target: folder.path(at: name),
                        reason: .invalid(
                            "an issue named '\(name)' is where paid issues' content is published (\(IssueAccess.paidFolder)/<name>/); rename the issue and build again"
                        ))
                }
                issues.append(name)
            case .symbolicLink?:
                throw .fileSystem(
                    "plan", .symbolicLink(path: folder.path(of: name), target: folder.linkTarget(of: name), expected: .folder))
            default: continue
            }
        }
        return issues
    }

    /// An issue's build manifest, read within its limit and checked.
    private static func manifest(of name: String, in folder: OpenFolder) throws(PublishError) -> BuildManifest {
        let path = "\(name)/\(BuildManifest.folderName)/manifest.json"
        let target = folder.path(at: path)
        guard let data = try PublishFiles.read(path, in: folder, limit: manifestLimit, step: "plan") else {
            throw PublishError(step: "plan", target: target, reason: .changedSinceBuild("the build manifest is missing"))
        }
        let manifest: BuildManifest
        do { manifest = try JSONDecoder().decode(BuildManifest.self, from: data) } catch {
            throw PublishError(step: "plan", target: target, reason: .invalid("not a build manifest; build the issue again"))
        }
        guard manifest.name == name else {
            throw PublishError(
                step: "plan", target: target,
                reason: .invalid(
                    "it names the issue \(SafeRelativePath.quoted(manifest.name)), not '\(name)'; build the issue again"))
        }
        let entries =
            [
                ("bundle", manifest.bundle), ("retinaBundle", manifest.retinaBundle), ("cover", manifest.cover),
                ("retinaCover", manifest.retinaCover),
            ] + (manifest.index.map { [("index", $0)] } ?? []) + (manifest.retinaIndex.map { [("retinaIndex", $0)] } ?? [])
            + (manifest.hpub.map { [("hpub", $0)] } ?? []) + (manifest.epub.map { [("epub", $0)] } ?? [])
        for (key, record) in entries {
            if let problem = SafeRelativePath.componentProblem(record.file) {
                throw PublishError(
                    step: "plan", target: target, reason: .unsafeName(entry: "\(key).file", name: record.file, problem: problem))
            }
            guard record.size >= 0, SHA256.isHex(record.sha256) else {
                throw PublishError(
                    step: "plan", target: target,
                    reason: .invalid("\(key) has an impossible size or SHA-256; build the issue again"))
            }
        }
        guard Set(entries.map(\.1.file)).count == entries.count else {
            throw PublishError(
                step: "plan", target: target, reason: .invalid("two outputs have the same file name; build the issue again"))
        }
        return manifest
    }

    /// The built OPDS feed must link only files of the built issues, with their sizes: a feed
    /// written before an issue was built again would send readers to files that are not there.
    private static func checkFeed(in folder: OpenFolder, against files: [PublishedFile]) throws(PublishError) {
        let target = folder.path(at: OPDSLinks.fileName)
        guard let data = try PublishFiles.read(OPDSLinks.fileName, in: folder, limit: catalogLimit, step: "plan") else { return }
        guard let feed = OPDSLinks.decode(data) else {
            throw PublishError(step: "plan", target: target, reason: .invalid(OPDSLinks.unreadable))
        }
        let sizes = Dictionary(files.map { ($0.path, $0.size) }, uniquingKeysWith: { first, _ in first })
        for link in feed.links {
            // The file is the URL's last two or three path components (`a-1/a-1.zip`, or a
            // folder deeper when the layout puts content there).
            let components = (URL(string: link.href)?.path ?? "").split(separator: "/").map(String.init)
            let size = (max(0, components.count - 3)..<max(0, components.count - 1)).lazy
                .compactMap { sizes[components[$0...].joined(separator: "/")] }.first
            guard let size, link.size == nil || link.size == size else {
                throw PublishError(
                    step: "plan", target: target,
                    reason: .invalid(
                        "it links \(Redacted.message(SafeRelativePath.quoted(link.href))), which is not a file of the built issues; run 'newsstand catalog' or build again"
                    ))
            }
        }
    }

    /// The built catalog must list exactly what the manifests say, at URLs that end in the
    /// files' names: publishing a catalog that does not would break the served magazine.
    /// Returns the base URL of its first entry.
    private static func checkCatalog(in folder: OpenFolder, against manifests: [String: BuildManifest])
        throws(PublishError) -> URL?
    {
        let target = folder.path(at: "issues.plist")
        guard let data = try PublishFiles.read("issues.plist", in: folder, limit: catalogLimit, step: "plan") else { return nil }
        let decoded: (entries: [CatalogEntry], problems: [CatalogError])
        do {
            decoded = try Catalog.decode(data)
        } catch {
            throw PublishError(step: "plan", target: target, reason: .catalog(error))
        }
        if let problem = decoded.problems.first {
            throw PublishError(step: "plan", target: target, reason: .catalog(problem))
        }
        let entries = decoded.entries
        let rebuild = "run 'newsstand catalog' or build again"
        var firstBase: URL?
        for entry in entries {
            guard let manifest = manifests[entry.name] else {
                throw PublishError(
                    step: "plan", target: target,
                    reason: .invalid(
                        "it lists \(SafeRelativePath.quoted(entry.name)), which has no built issue folder; \(rebuild)"))
            }
            // The manifest's own entry, on the catalog's base URL, must be the catalog's entry.
            let probe = manifest.catalogEntry(baseURL: URL(fileURLWithPath: "/")).content
            let suffix = String(probe.dropFirst("file:///".count))
            guard entry.content.hasSuffix(suffix), let base = URL(string: String(entry.content.dropLast(suffix.count))),
                manifest.catalogEntry(baseURL: base) == entry
            else {
                throw PublishError(
                    step: "plan", target: target,
                    reason: .invalid(
                        "its entry for '\(entry.name)' does not match \(entry.name)/.newsstand/manifest.json; \(rebuild)"))
            }
            if firstBase == nil { firstBase = base }
        }
        return firstBase
    }
}
