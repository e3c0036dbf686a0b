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
/// the magazine as it was. No imaging runs in this process: a PDF's pages are counted, and
/// every page rendered, by a renderer process of its own (``PageRenderer``) with the request's
/// memory limit and deadline. Blocking: run it on a thread of your own.
public struct IssueImporter: Sendable {
    public let request: ImportRequest
    public let limits: ImagingLimits

    public init(_ request: ImportRequest, limits: ImagingLimits = ImagingLimits()) {
        self.request = request
        self.limits = limits
    }

    /// The renderer processes every page goes through, with the request's memory and time.
    var renderer: PageRenderer {
        PageRenderer(
            executable: request.renderer, memoryLimit: request.pageMemoryLimit, timeout: request.pageTimeout, limits: limits)
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
        let (source, notes, openingWarnings) = try openSource()
        let articles: [ClosedRange<Int>]
        do {
            articles =
                try request.articles?.articles(pageCount: source.pageCount)
                ?? ArticleRanges.onePerPage(pageCount: source.pageCount)
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
            let pages = try IssuePageWriter(renderer: renderer, width: request.width, jobs: request.jobs).write(
                source, names: names, into: workspace.assets, normalSizes: !target.derivesNormalSizes, progress: progress)
            guard let first = pages.first else { throw .unreadableSource(path: request.source.path, reason: "it has no pages") }
            let cover = try writeCover(from: first, into: workspace.assets, normalSize: !target.derivesNormalSizes)
            try writePlist(
                PageConfig.pages(pages.map(\.baseImage), articles: articles), named: "pages.plist", in: workspace.folder)
            try writePlist(PageConfig.issue(request, cover: cover.name), named: "issue.plist", in: workspace.folder)
            try workspace.commit(as: issueName)
            return ImportSummary(
                issueFolder: issues.path(of: issueName), pages: pages.count, articles: articles.count,
                pngPages: pages.filter { $0.format == .png }.count, jpegPages: pages.filter { $0.format == .jpeg }.count,
                wroteNormalSizes: !target.derivesNormalSizes, imageBytes: pages.reduce(cover.bytes) { $0 + $1.bytes },
                cover: RetinaName.of(cover.name), notes: notes, warnings: openingWarnings + pages.flatMap(\.warnings),
                leftoversRemoved: leftovers)
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

    /// The PDF or the folder of images, opened and counted, with the notes (files skipped)
    /// or warnings (poppler's complaints) that came of it.
    private func openSource() throws(ImportError) -> (source: any PageSource, notes: [String], warnings: [String]) {
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
            return (FolderPages(folder: folder, names: listing.pages), listing.notes, [])
        }
        // A file the user named: a link to it is followed; a FIFO or device is refused without
        // blocking (OpenFile opens non-blocking and checks it is a regular file).
        let file: OpenFile
        do {
            file = try OpenFile.open(request.source)
        } catch {
            throw .unreadableSource(path: path, reason: error.reason)
        }
        // Counted by a renderer too: poppler reading a hostile file's page tree costs this
        // process nothing and has the same deadline.
        let (answer, warnings) = try renderer.run(
            renderer.job(.countPDFPages, source: path), files: .init(source: file.descriptor), page: nil)
        guard case .counted(let pages) = answer, pages > 0, pages <= limits.maximumPDFPages else {
            throw .rendererFailed(page: nil, source: path, reason: "its answer does not fit the job")
        }
        return (PDFPages(file: file, pageCount: pages), [], warnings.map { "'\(path)': \($0)" })
    }

    /// The cover: the first page's image, copied as `cover@2x.<ext>` (and `cover.<ext>`).
    private func writeCover(from page: IssuePageWriter.WrittenPage, into assets: OpenFolder, normalSize: Bool) throws(ImportError)
        -> (name: String, bytes: Int64)
    {
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
