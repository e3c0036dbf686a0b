import Foundation
import NewsstandArchive
import NewsstandCore
import NewsstandFormat

/// Builds an issue's Baker book (`<name>.hpub`, for `--feed shelf`): a zip that a Baker app
/// unpacks into the issue's folder and opens by its `book.json`.
///
/// ```
/// book.json          hpub, title, date, author, publisher, url, cover, orientation, zoomable, contents
/// book.css           the pages' stylesheet
/// 1-1.html …         one HTML page per page, article by article (`<article>-<page>.html`)
/// assets/…           every file the pages use, images in both sizes, and the cover in both sizes
/// ```
///
/// Only keys Baker's `book.json` parser knows are written, each with the type it checks (the
/// original parser refuses a book with any other string, number or array key). Like the
/// bundles, the archive is reproducible (fixed order, the issue's date as every entry's time)
/// and streamable, and its inputs are opened without following links, the page config as the
/// bytes that were validated.
struct HPubBuilder {
    let plan: IssuePlan
    /// The issue's output folder (`<output>/<name>`): the image cache.
    let outputFolder: OpenFolder
    /// Where the book goes: `outputFolder`, or `<output>/paid/<name>` for a paid issue.
    let contentFolder: OpenFolder
    let temporaryNames: [String: String]
    let renderer: any BookPageRenderer
    /// The magazine's author for the book (its Publisher, else its Title).
    let author: String
    let baseURL: URL?
    /// Derived and optimised images standing in for files of `assets/`.
    var images = PreparedImages()

    /// The book's file name before it is versioned.
    static func fileName(of plan: IssuePlan) -> String { "\(plan.name).hpub" }

    /// The folder of the book's assets.
    static let assetFolder = "assets"

    func build() throws(BuildError) -> OutputRecord {
        let source = try IssueSource(plan)
        let assets = try source.assets()
        var files: [(file: OpenFile, entry: String)] = []
        for name in assetNames() {
            files.append(
                (
                    try images.open(name, source: source, assets: assets, outputFolder: outputFolder).file,
                    "\(Self.assetFolder)/\(name)"
                ))
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
        do {
            let writer = try ZipWriter(descriptor: dup(pending.file.descriptor), path: pending.temporaryPath) {
                hasher.update($0)
            }
            try writePages(to: writer, source: source)
            for item in files {
                try writer.addFile(
                    reading: item.file.descriptor, size: item.file.size, path: item.file.path, as: item.entry,
                    modified: plan.metadata.date, compression: .suited(toFileName: item.entry))
            }
            size = try writer.close()
        } catch let error as BuildError {
            pending.discard()
            throw error
        } catch {
            pending.discard()
            throw .archive(
                issue: plan.name, error as? ArchiveError ?? ArchiveError(path: pending.temporaryPath, reason: "\(error)"))
        }
        do {
            // Best effort: the book is made again from its sources, like the bundles.
            try pending.commit(.bestEffort)
        } catch {
            throw .output(issue: plan.name, error)
        }
        return OutputRecord(file: name, size: size, sha256: hasher.finalizeHex())
    }

    /// `book.json`, `book.css` and the pages, each page rendered and written before the next.
    /// The page config's tree is held under the bundles' config gate: one config in memory at a
    /// time in the whole process, whatever `--jobs` is.
    private func writePages(to writer: ZipWriter, source: IssueSource) throws {
        BundleBuilder.configGate.lock()
        defer { BundleBuilder.configGate.unlock() }
        let config = try source.config("pages.plist")
        let date = plan.metadata.date
        try writer.addData(
            bookJSON(contents: Self.pageNames(config.root)), as: "book.json", modified: date, compression: .deflate)
        try writer.addData(Data(renderer.stylesheet.utf8), as: "book.css", modified: date, compression: .deflate)
        for (a, article) in (config.root.array ?? []).enumerated() {
            for (p, page) in (article.array ?? []).enumerated() {
                let html: String
                do {
                    html = try renderer.page(
                        page, article: a + 1, number: p + 1, title: plan.metadata.title, imageFolder: Self.assetFolder)
                } catch {
                    throw BuildError.bookPage(issue: plan.name, path: config.file.path, reason: "\(error)")
                }
                try writer.addData(Data(html.utf8), as: "\(a + 1)-\(p + 1).html", modified: date, compression: .deflate)
            }
        }
    }

    /// `<article>-<page>.html` for every page of the config, in reading order.
    static func pageNames(_ root: PlistNode) -> [String] {
        (root.array ?? []).enumerated().flatMap { a, article in
            (article.array ?? []).indices.map { "\(a + 1)-\($0 + 1).html" }
        }
    }

    /// Every file the book holds in `assets/`, sorted, each once: the pages' files in both
    /// sizes and the cover in both sizes.
    func assetNames() -> [String] {
        var names = Set([plan.metadata.cover, RetinaName.of(plan.metadata.cover)])
        for asset in plan.assets {
            names.insert(asset.fileName(retina: false))
            names.insert(asset.fileName(retina: true))
        }
        return names.sorted()
    }

    /// `book.json`, keys sorted so the bytes never vary.
    func bookJSON(contents: [String]) -> Data {
        let metadata = plan.metadata
        let (day, _, _, _) = PlistDate.components(metadata.date)
        let book: [String: Any] = [
            "hpub": 1,
            "title": metadata.title,
            "author": [author],
            "publisher": author,
            "date": String(format: "%04d-%02d-%02d", day.year, day.month, day.day),
            "url": bookURL,
            "cover": "\(Self.assetFolder)/\(metadata.cover)",
            "orientation": "both",
            "zoomable": false,
            "contents": contents,
        ]
        // Strings, numbers, booleans and arrays of strings always serialize.
        var data =
            (try? JSONSerialization.data(withJSONObject: book, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        data.append(0x0A)
        return data
    }

    /// The book's identity for Baker (which names a book by its title and a digest of `url`):
    /// `book://<host><BaseURL path><name>`, the HPub form, stable across builds.
    var bookURL: String {
        guard let baseURL else { return "book://localhost/\(plan.name)" }
        return "book://\(TagURI.authority(of: baseURL))\(TagURI.path(of: baseURL))\(plan.name)"
    }
}
