import Foundation
import NewsstandArchive
import NewsstandCore
import NewsstandFormat

/// Builds an issue's fixed-layout EPUB 3 (`<name>.epub`, for `--feed epub`), the container
/// stores and reading apps take for replica magazines:
///
/// ```
/// mimetype                 application/epub+zip: first, stored, no extra field
/// META-INF/container.xml   where the package is
/// EPUB/package.opf         metadata (rendition:layout pre-paginated), manifest, spine
/// EPUB/nav.xhtml           one entry per article, and a page list
/// EPUB/page.css
/// EPUB/1-1.xhtml …         one page per issue page in reading order, its viewport the image's pixels
/// EPUB/images/cover.png    the @2x cover (the cover-image)
/// EPUB/images/1-1.png …    each page's base image from its @2x master, named for its first page
/// ```
///
/// Every page shows its base image at its `@2x` size; what else a page class has (a
/// PhotoPage's gallery) is left out, and counted in `Output.degraded`. Like the bundles, the
/// archive is reproducible (a fixed order, the issue's Date as every entry's time and as
/// `dcterms:modified`) and streamable, and its inputs are opened without following links, the
/// page config as the bytes that were validated.
struct EPUBBuilder {
    let plan: IssuePlan
    /// The issue's output folder (`<output>/<name>`): the image cache.
    let outputFolder: OpenFolder
    /// Where the EPUB goes: `outputFolder`, or `<output>/paid/<name>` for a paid issue.
    let contentFolder: OpenFolder
    let temporaryNames: [String: String]
    let settings: EPUBSettings
    /// Derived and optimised images standing in for files of `assets/`.
    var images = PreparedImages()

    /// The EPUB's record, and how many of its pages show only their base image, by class.
    struct Output: Sendable {
        var record: OutputRecord
        var degraded: [String: Int]
    }

    /// The EPUB's file name before it is versioned.
    static func fileName(of plan: IssuePlan) -> String { "\(plan.name).epub" }

    func build() throws(BuildError) -> Output {
        let source = try IssueSource(plan)
        let assets = try source.assets()
        let pages = try readPages(source)
        // Each base image once, named for the first page that shows it, measured before
        // anything is written (its pages say its size), then closed: an issue of thousands of
        // pages holds no descriptor per image. Each is opened again to be packed.
        let cover = try measure(
            RetinaName.of(plan.metadata.cover), as: "images/cover", id: "cover", source: source, assets: assets)
        var images: [String: EPUBDocuments.Image] = [:]
        var packed = [(file: RetinaName.of(plan.metadata.cover), image: cover)]
        for page in pages where images[page.baseImage] == nil {
            let stem = "\(page.article)-\(page.number)"
            let file = RetinaName.of(page.baseImage)
            let image = try measure(file, as: "images/\(stem)", id: "image-\(stem)", source: source, assets: assets)
            images[page.baseImage] = image
            packed.append((file, image))
        }
        let name = Self.fileName(of: plan)
        let pending: AtomicFile
        do {
            pending = try AtomicFile.create(named: name, in: contentFolder, temporaryName: temporaryNames[name])
        } catch {
            throw .output(issue: plan.name, error)
        }
        let hasher = SHA256()  // updated on the zip writer's feed thread, read after `close()`
        let size: Int64
        do throws(BuildError) {
            let writer: ZipWriter
            do {
                writer = try ZipWriter(descriptor: dup(pending.file.descriptor), path: pending.temporaryPath) {
                    hasher.update($0)
                }
            } catch {
                throw BuildError.archive(issue: plan.name, error)
            }
            try archiving { () throws(ArchiveError) in try writeDocuments(to: writer, pages: pages, images: images, cover: cover)
            }
            for (file, image) in packed {
                let opened = try reopen(file, as: image, source: source, assets: assets)
                try archiving { () throws(ArchiveError) in
                    try writer.addFile(
                        reading: opened.descriptor, size: opened.size, path: opened.path, as: "EPUB/\(image.href)",
                        modified: plan.metadata.date, compression: .store)
                }
            }
            size = try archiving { () throws(ArchiveError) in try writer.close() }
        } catch {
            pending.discard()
            throw error
        }
        do {
            // Best effort: the EPUB is made again from its sources, like the bundles.
            try pending.commit(.bestEffort)
        } catch {
            throw .output(issue: plan.name, error)
        }
        var degraded: [String: Int] = [:]
        for page in pages where page.isDegraded { degraded[page.className, default: 0] += 1 }
        return Output(record: OutputRecord(file: name, size: size, sha256: hasher.finalizeHex()), degraded: degraded)
    }

    /// The mimetype (first, stored, no extra field), the container, the package, the
    /// navigation, the stylesheet and the pages, in that order.
    private func writeDocuments(
        to writer: ZipWriter, pages: [EPUBPage], images: [String: EPUBDocuments.Image], cover: EPUBDocuments.Image
    ) throws(ArchiveError) {
        let date = plan.metadata.date
        func text(_ text: String, as entry: String) throws(ArchiveError) {
            try writer.addData(Data(text.utf8), as: entry, modified: date, compression: .deflate)
        }
        try writer.addData(
            Data("application/epub+zip".utf8), as: "mimetype", modified: date, compression: .store, omittingExtraFields: true)
        try text(EPUBDocuments.container, as: "META-INF/container.xml")
        let metadata = EPUBDocuments.Metadata(
            identifier: settings.identifier(of: plan.name), title: plan.metadata.title, date: date, publisher: settings.publisher,
            summary: plan.metadata.summary, language: settings.language(of: plan.metadata))
        try text(EPUBDocuments.package(metadata, pages: pages, images: images, cover: cover), as: EPUBDocuments.packagePath)
        try text(
            EPUBDocuments.navigation(title: plan.metadata.title, language: metadata.language, pages: pages), as: "EPUB/nav.xhtml")
        try text(EPUBDocuments.stylesheet, as: "EPUB/page.css")
        for (index, page) in pages.enumerated() {
            guard let image = images[page.baseImage] else { continue }
            try text(
                EPUBDocuments.page(
                    page, position: index + 1, image: image, issueTitle: plan.metadata.title, language: metadata.language),
                as: "EPUB/\(page.document)")
        }
    }

    /// A step of the archive, its failure as the issue's.
    private func archiving<T>(_ step: () throws(ArchiveError) -> T) throws(BuildError) -> T {
        do {
            return try step()
        } catch {
            throw .archive(issue: plan.name, error)
        }
    }

    /// The config's pages, read under the bundles' config gate (one config tree in memory at a
    /// time in the whole process); only their names and classes are kept.
    private func readPages(_ source: IssueSource) throws(BuildError) -> [EPUBPage] {
        BundleBuilder.configGate.lock()
        defer { BundleBuilder.configGate.unlock() }
        let config = try source.config("pages.plist")
        do {
            return try EPUBPage.pages(of: config.root)
        } catch {
            throw .epubPage(
                issue: plan.name, path: config.file.path, article: error.article, page: error.number, reason: error.reason)
        }
    }

    /// An image of the EPUB (`name` in `assets/`, or its stand-in), with the pixel size and
    /// media type its header says: only what EPUB reading systems must show (PNG, JPEG, GIF).
    private func measure(
        _ name: String, as stem: String, id: String, source: IssueSource, assets: OpenFolder
    ) throws(BuildError) -> EPUBDocuments.Image {
        let file = try images.open(name, source: source, assets: assets, outputFolder: outputFolder).file
        return try measure(file, as: stem, id: id)
    }

    private func measure(_ file: OpenFile, as stem: String, id: String) throws(BuildError) -> EPUBDocuments.Image {
        let probe = ImageSize.probe(file)
        let format: (type: String, extension: String)
        switch probe.signature {
        case .png: format = ("image/png", "png")
        case .jpeg: format = ("image/jpeg", "jpg")
        case .gif: format = ("image/gif", "gif")
        default:
            let found = probe.signature == .unknown ? "not an image format newsstand reads" : "\(probe.signature.rawValue) data"
            throw .epubImage(issue: plan.name, path: file.path, reason: "it is \(found); an EPUB page shows PNG, JPEG or GIF")
        }
        guard case .success(let size) = probe.size else {
            throw .epubImage(issue: plan.name, path: file.path, reason: "its size cannot be read")
        }
        return EPUBDocuments.Image(
            href: "\(stem).\(format.extension)", id: id, mediaType: format.type, width: size.width, height: size.height)
    }

    /// The image `name` opened again to be packed: refused unless it still measures as
    /// `image`, whose size and type its pages already give.
    private func reopen(
        _ name: String, as image: EPUBDocuments.Image, source: IssueSource, assets: OpenFolder
    ) throws(BuildError) -> OpenFile {
        let file = try images.open(name, source: source, assets: assets, outputFolder: outputFolder).file
        let stem = String(image.href.prefix(upTo: image.href.lastIndex(of: ".") ?? image.href.endIndex))
        guard try measure(file, as: stem, id: image.id) == image else {
            throw .epubImage(
                issue: plan.name, path: file.path, reason: "it changed while the EPUB was being written; build again")
        }
        return file
    }
}
