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
    let outputFolder: OpenFolder
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
        // Each base image once, named for the first page that shows it, opened and measured
        // before anything is written: the pages say its size.
        var pictures: [String: (image: EPUBDocuments.Image, file: OpenFile)] = [:]
        var order: [String] = []
        for page in pages where pictures[page.baseImage] == nil {
            let name = "\(page.article)-\(page.number)"
            pictures[page.baseImage] = try picture(
                RetinaName.of(page.baseImage), as: "images/\(name)", id: "image-\(name)", source: source, assets: assets)
            order.append(page.baseImage)
        }
        let cover = try picture(
            RetinaName.of(plan.metadata.cover), as: "images/cover", id: "cover", source: source, assets: assets)
        let images = pictures.mapValues(\.image)
        let metadata = EPUBDocuments.Metadata(
            identifier: settings.identifier(of: plan.name), title: plan.metadata.title, date: plan.metadata.date,
            publisher: settings.publisher, summary: plan.metadata.summary)
        let date = plan.metadata.date
        let name = Self.fileName(of: plan)
        let pending: AtomicFile
        do {
            pending = try AtomicFile.create(named: name, in: outputFolder, temporaryName: temporaryNames[name])
        } catch {
            throw .output(issue: plan.name, error)
        }
        let hasher = BackgroundHasher()
        let size: Int64
        do throws(ArchiveError) {
            let writer = try ZipWriter(descriptor: dup(pending.file.descriptor), path: pending.temporaryPath) {
                hasher.update($0)
            }
            func text(_ text: String, as entry: String) throws(ArchiveError) {
                try writer.addData(Data(text.utf8), as: entry, modified: date, compression: .deflate)
            }
            try writer.addData(
                Data("application/epub+zip".utf8), as: "mimetype", modified: date, compression: .store, omittingExtraFields: true)
            try text(EPUBDocuments.container, as: "META-INF/container.xml")
            try text(
                EPUBDocuments.package(metadata, pages: pages, images: images, cover: cover.image), as: EPUBDocuments.packagePath)
            try text(EPUBDocuments.navigation(title: plan.metadata.title, pages: pages), as: "EPUB/nav.xhtml")
            try text(EPUBDocuments.stylesheet, as: "EPUB/page.css")
            for (index, page) in pages.enumerated() {
                guard let image = images[page.baseImage] else { continue }
                try text(
                    EPUBDocuments.page(page, position: index + 1, image: image, issueTitle: plan.metadata.title),
                    as: "EPUB/\(page.document)")
            }
            for (image, file) in [cover] + order.compactMap({ pictures[$0] }) {
                try writer.addFile(
                    reading: file.descriptor, size: file.size, path: file.path, as: "EPUB/\(image.href)", modified: date,
                    compression: .store)
            }
            size = try writer.close()
        } catch {
            pending.discard()
            throw .archive(issue: plan.name, error)
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
    private func picture(
        _ name: String, as stem: String, id: String, source: IssueSource, assets: OpenFolder
    ) throws(BuildError) -> (image: EPUBDocuments.Image, file: OpenFile) {
        let file = try images.open(name, source: source, assets: assets, outputFolder: outputFolder).file
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
        let image = EPUBDocuments.Image(
            href: "\(stem).\(format.extension)", id: id, mediaType: format.type, width: size.width, height: size.height)
        return (image, file)
    }
}
