import Foundation
import NewsstandBuild
import NewsstandCore

/// A web edition (`newsstand preview`'s output, which `WebEditionRecord` marks) as publish
/// reads it: every regular file under the folder but hidden ones, walked without following
/// links, each hashed as it is read; its index page (`index.html` at the root) is the one
/// catalog, switched in last, so readers never get a shelf whose issue pages or images are not
/// there yet. Issue pages, images and the static files go first, as bundles do.
extension BuiltMagazine {
    /// The index page: what `PreviewURL` serves, and the catalog of a web edition.
    static let indexPage = "index.html"
    /// The deepest folder a web edition may have (the preview writes two levels).
    static let webEditionDepth = 8

    /// The web edition in `folder`, or nil when `folder` holds none (no record).
    static func webEdition(in folder: OpenFolder, builtFolder: URL) throws(PublishError) -> BuiltMagazine? {
        guard let data = try PublishFiles.read(WebEditionRecord.path, in: folder, limit: WebEditionRecord.sizeLimit, step: "plan")
        else { return nil }
        guard let record = WebEditionRecord.decode(data) else {
            throw PublishError(
                step: "plan", target: folder.path(at: WebEditionRecord.path),
                reason: .invalid("not a web edition record; run 'newsstand preview' again"))
        }
        guard case .regularFile? = try PublishFiles.status(at: indexPage, in: folder, step: "plan")?.kind else {
            throw PublishError(step: "plan", target: folder.path(at: indexPage), reason: .notBuilt)
        }
        var files: [PublishedFile] = []
        try collect(folder, prefix: "", depth: 0, builtFolder: builtFolder, into: &files)
        // Images and static files, then issue pages, then the index page last of all.
        let pages = files.filter { $0.path.hasSuffix(".html") }
        let rest = files.filter { !$0.path.hasSuffix(".html") }
        let ordered =
            rest + pages.filter { $0.path != indexPage }
            + pages.filter { $0.path == indexPage }.map { PublishedFile(path: $0.path, source: $0.source, isCatalog: true) }
        return BuiltMagazine(
            files: ordered, catalogURL: record.url?.appendingPathComponent(indexPage), isWebEdition: true)
    }

    /// Every regular file under `folder` but hidden ones, as `prefix` + its name, sorted; a
    /// link, a FIFO or device, an unsafe name or a folder too deep is an error (the preview
    /// writes none, and a link could publish what lies outside the folder).
    private static func collect(
        _ folder: OpenFolder, prefix: String, depth: Int, builtFolder: URL, into files: inout [PublishedFile]
    ) throws(PublishError) {
        let entries: [FolderEntry]
        do { entries = try folder.entries() } catch { throw .fileSystem("plan", error) }
        for entry in entries.sorted(by: { $0.rawName.lexicographicallyPrecedes($1.rawName) }) where !entry.isHidden {
            guard let name = entry.name, SafeRelativePath.isSafeComponent(name) else {
                let name = entry.name ?? String(decoding: entry.rawName, as: UTF8.self)
                throw PublishError(
                    step: "plan", target: folder.path,
                    reason: .unsafeName(
                        entry: "web edition file", name: name, problem: SafeRelativePath.componentProblem(name) ?? .control))
            }
            let path = prefix + name
            switch entry.kind {
            case .regularFile:
                files.append(try hashed(name, in: folder, as: path, builtFolder: builtFolder))
            case .folder where depth < webEditionDepth:
                let inner: OpenFolder
                do { inner = try folder.folder(name) } catch { throw .fileSystem("plan", error) }
                try collect(inner, prefix: path + "/", depth: depth + 1, builtFolder: builtFolder, into: &files)
            case .symbolicLink:
                throw .fileSystem(
                    "plan",
                    .symbolicLink(path: folder.path(of: name), target: folder.linkTarget(of: name), expected: .regularFile))
            default:
                throw .fileSystem("plan", .wrongKind(path: folder.path(of: name), found: entry.kind, expected: .regularFile))
            }
        }
    }

    /// The file `name` of `folder`, hashed as read (it must not change meanwhile).
    private static func hashed(_ name: String, in folder: OpenFolder, as path: String, builtFolder: URL) throws(PublishError)
        -> PublishedFile
    {
        guard let file = try PublishFiles.file(at: name, in: folder, step: "plan") else {
            throw PublishError(step: "plan", target: folder.path(of: name), reason: .changedWhileRead)
        }
        let hasher = SHA256()
        let read: Int64
        do {
            read = try FileCopy.copy(file, to: nil, limit: file.size) { hasher.update($0) }
        } catch {
            throw .fileSystem("plan", error)
        }
        guard read == file.size else {
            throw PublishError(step: "plan", target: folder.path(of: name), reason: .changedWhileRead)
        }
        let source = UploadSource(folder: builtFolder, path: path, size: file.size, sha256: hasher.finalizeHex())
        return PublishedFile(path: path, source: source, isCatalog: false)
    }
}
