import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat
import NewsstandImaging

/// `newsstand import`: renders a PDF's pages, or scales a folder's page images, into a new
/// issue of a magazine, with its `pages.plist` (one `SimplePage` per page) and `issue.plist`.
///
/// Everything is checked before the first page is rendered (the magazine, its `SimplePage`,
/// the issue name, the source, `--articles` against the page count), and everything is written
/// into an `ImportWorkspace` renamed into place at the end, so a failure at any point leaves
/// the magazine as it was. Blocking: run it on a thread of your own.
public struct IssueImporter: Sendable {
    public let request: ImportRequest
    public let limits: ImagingLimits

    public init(_ request: ImportRequest, limits: ImagingLimits = ImagingLimits()) {
        self.request = request
        self.limits = limits
    }

    /// Imports; `progress` is called with (pages done, pages) from the rendering threads.
    public func run(progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws(ImportError) -> ImportSummary {
        guard IssueName.isSafe(request.issueName) else { throw .invalidIssueName(request.issueName) }
        let target = try MagazineTarget(request.magazine, builtInSchema: request.builtInSchema)
        let (issues, createdIssues) = try openIssues(target.folder)
        do {
            return try run(into: issues, target: target, progress: progress)
        } catch {
            // A magazine without issues/ gets none from a failed import either.
            if createdIssues { _ = try? OpenFolder.open(target.folder).removeFolderIfEmpty("issues") }
            throw error
        }
    }

    private func run(
        into issues: OpenFolder, target: MagazineTarget, progress: @escaping @Sendable (Int, Int) -> Void
    ) throws(ImportError) -> ImportSummary {
        let issueName = request.issueName
        guard issues.kind(of: issueName) == nil else { throw .issueExists(name: issueName, path: issues.path(of: issueName)) }
        let (source, notes) = try openSource()
        let articles: [ClosedRange<Int>]
        do {
            articles = try request.articles?.articles(pageCount: source.pageCount) ?? ArticleRanges.onePerPage(pageCount: source.pageCount)
        } catch {
            throw .articles(error)
        }
        // A title XML cannot carry (a control character) fails here, before any page is rendered.
        _ = try plistData(PageConfig.issue(request, cover: "cover.png"), named: "issue.plist")
        let leftovers = ImportWorkspace.removeLeftovers(in: issues)
        let workspace: ImportWorkspace
        do {
            workspace = try ImportWorkspace.create(in: issues, for: issueName)
        } catch {
            throw .fileSystem(error)
        }
        do throws(ImportError) {
            let names = PageNames(articles: articles)
            let pages = try renderPages(source, names: names, into: workspace.assets, normalSizes: !target.derivesNormalSizes, progress: progress)
            guard let first = pages.first else { throw .unreadableSource(path: request.source.path, reason: "it has no pages") }
            let cover = try writeCover(from: first, into: workspace.assets, normalSize: !target.derivesNormalSizes)
            try writePlist(PageConfig.pages(pages.map(\.baseImage), articles: articles), named: "pages.plist", in: workspace.folder)
            try writePlist(PageConfig.issue(request, cover: cover.name), named: "issue.plist", in: workspace.folder)
            try workspace.commit(as: issueName)
            return ImportSummary(
                issueFolder: issues.path(of: issueName), pages: pages.count, articles: articles.count,
                pngPages: pages.filter { $0.format == .png }.count, jpegPages: pages.filter { $0.format == .jpeg }.count,
                wroteNormalSizes: !target.derivesNormalSizes, imageBytes: pages.reduce(cover.bytes) { $0 + $1.bytes },
                cover: RetinaName.of(cover.name), notes: notes, leftoversRemoved: leftovers)
        } catch {
            workspace.discard()
            throw error
        }
    }

    /// The magazine's `issues/` folder, made when missing (and whether it was).
    private func openIssues(_ magazine: URL) throws(ImportError) -> (OpenFolder, Bool) {
        do {
            let folder = try OpenFolder.open(magazine)
            let existed = folder.kind(of: "issues") != nil
            return (try existed ? folder.folder("issues") : folder.makeFolder("issues"), !existed)
        } catch {
            throw .fileSystem(error)
        }
    }

    /// The PDF or the folder of images, opened and counted.
    private func openSource() throws(ImportError) -> (any PageSource, [String]) {
        let path = request.source.path
        guard let kind = FileStatus.kind(of: request.source) else {
            throw .unreadableSource(path: path, reason: "it does not exist")
        }
        if kind == .folder {
            let folder: OpenFolder
            do {
                folder = try OpenFolder.open(request.source)
            } catch {
                throw .unreadableSource(path: path, reason: error.reason)
            }
            let listing = try PageFolderScanner.scan(folder, limit: limits.maximumPDFPages)
            guard !listing.pages.isEmpty else { throw .noImages(folder: path, skipped: listing.notes.count) }
            return (FolderPages(folder: folder, names: listing.pages), listing.notes)
        }
        // A file the user named: a link to it is followed; a FIFO or device is refused without
        // blocking (OpenFile opens non-blocking and checks it is a regular file).
        let file: OpenFile
        do {
            file = try OpenFile.open(request.source)
        } catch {
            throw .unreadableSource(path: path, reason: error.reason)
        }
        do {
            return (PDFPages(file: file, document: try PDFDocument(.descriptor(file.descriptor, name: path), limits: limits)), [])
        } catch {
            throw .imaging(error, page: nil)
        }
    }

    /// One page as written.
    struct WrittenPage: Sendable {
        /// The name pages.plist uses (`3-0.png`).
        var baseImage: String
        var format: ImageFormat
        /// Bytes of the `@2x` file and, when written, the normal one.
        var bytes: Int64
    }

    private func renderPages(
        _ source: any PageSource, names: PageNames, into assets: OpenFolder, normalSizes: Bool,
        progress: @escaping @Sendable (Int, Int) -> Void
    ) throws(ImportError) -> [WrittenPage] {
        let results = PageResults(count: source.pageCount)
        let width = request.width
        let limits = self.limits
        let total = source.pageCount
        progress(0, total)
        try ParallelPages.run(count: total, width: request.jobs) { index throws(ImportError) in
            let page = try Self.renderPage(
                index, of: source, named: names.stem(of: index), width: width, into: assets, normalSize: normalSizes, limits: limits)
            results.set(page, at: index)
        } finished: { done in
            progress(done, total)
        }
        return results.all
    }

    /// Renders one page to `<stem>@2x.<png|jpg>` (and `<stem>.<ext>` when normal sizes are
    /// written), through a temporary name: the extension is known once the encoding is chosen.
    private static func renderPage(
        _ index: Int, of source: any PageSource, named stem: String, width: Int, into assets: OpenFolder, normalSize: Bool,
        limits: ImagingLimits
    ) throws(ImportError) -> WrittenPage {
        let temporary = stem + "@2x.rendering"
        let file = try io { () throws(FileSystemError) in try assets.createFile(temporary) }
        let rendered = try source.render(index, width: width, to: .descriptor(file.descriptor, name: assets.path(of: temporary)))
        let name = stem + "." + (rendered.format == .jpeg ? "jpg" : "png")
        let master = RetinaName.of(name)
        try io { () throws(FileSystemError) in
            try file.synchronize()
            try assets.rename(temporary, to: master)
        }
        var bytes = rendered.byteCount
        if normalSize {
            let normal = try io { () throws(FileSystemError) in try assets.createFile(name) }
            do {
                bytes += try NormalSizeDeriver(limits: limits).derive(
                    from: .descriptor(file.descriptor, name: assets.path(of: master)),
                    to: .descriptor(normal.descriptor, name: normal.path)
                ).byteCount
            } catch {
                throw .imaging(error, page: index + 1)
            }
            try io { () throws(FileSystemError) in
                try normal.synchronize()
                try normal.close()
            }
        }
        try io { () throws(FileSystemError) in try file.close() }
        return WrittenPage(baseImage: name, format: rendered.format, bytes: bytes)
    }

    /// The cover: the first page's image, copied as `cover@2x.<ext>` (and `cover.<ext>`).
    private func writeCover(from page: WrittenPage, into assets: OpenFolder, normalSize: Bool) throws(ImportError) -> (name: String, bytes: Int64) {
        let name = "cover." + (page.format == .jpeg ? "jpg" : "png")
        var pairs = [(RetinaName.of(page.baseImage), RetinaName.of(name))]
        if normalSize { pairs.append((page.baseImage, name)) }
        var bytes: Int64 = 0
        do {
            for (from, to) in pairs {
                let input = try assets.file(from)
                let output = try assets.createFile(to)
                bytes += try FileCopy.copy(input, to: output)
                try output.synchronize()
                try output.close()
            }
        } catch {
            throw .fileSystem(error)
        }
        return (name, bytes)
    }

    private func plistData(_ root: PlistNode, named name: String) throws(ImportError) -> Data {
        do {
            return try PlistWriter.xml(root)
        } catch {
            throw .plist(file: name, reason: error.reason)
        }
    }

    private func writePlist(_ root: PlistNode, named name: String, in folder: OpenFolder) throws(ImportError) {
        let data = try plistData(root, named: name)
        do {
            let file = try folder.createFile(name)
            try file.write(data)
            try file.synchronize()
            try file.close()
        } catch {
            throw .fileSystem(error)
        }
    }
}

/// Runs file work, its failure an import's.
private func io<T>(_ body: () throws(FileSystemError) -> T) throws(ImportError) -> T {
    do {
        return try body()
    } catch {
        throw .fileSystem(error)
    }
}

/// The pages written so far, by index, filled from the rendering threads.
private final class PageResults: @unchecked Sendable {  // the lock guards the array
    private let lock = NSLock()
    private var pages: [IssueImporter.WrittenPage?]

    init(count: Int) { pages = Array(repeating: nil, count: count) }

    func set(_ page: IssueImporter.WrittenPage, at index: Int) { lock.withLock { pages[index] = page } }

    /// Every page (called after every page was written).
    var all: [IssueImporter.WrittenPage] { lock.withLock { pages.compactMap { $0 } } }
}
