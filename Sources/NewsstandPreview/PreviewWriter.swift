import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat

/// Writes a static web preview of a magazine's validated issues (`newsstand preview`).
///
/// The output, all with relative links so that it works from `file://` and can be published
/// beside the catalog as a web edition:
///
/// ```
/// <output>/
///   index.html              the shelf: every issue with its cover, newest first
///   preview.css preview.js  the templates folder's static files
///   <name>/
///     index.html            the issue's reader: its pages by class, keyboard navigation
///     cover.png cover@2x.png 1-0.png 1-0@2x.png …   copies of the images its pages use
/// ```
///
/// Pages are rendered from the HTML templates in `templates/preview/` (see its README): a
/// `SimplePage` as its base image, a `PhotoPage` as its base image with a gallery of
/// thumbnails opening the photos, any other class as a labelled placeholder listing its
/// properties, with the images among them (found through the schema) shown. Every image is
/// given with `srcset` so the browser picks the `@2x` file on a 2x screen. All user text is
/// HTML-escaped. Each HTML file is written under a temporary name and renamed into place,
/// `<output>/index.html` last.
public struct PreviewWriter {
    /// The magazine, as `MagazineValidator.open()` gives it.
    public var magazine: Magazine
    /// The output folder (created if missing).
    public var output: URL
    /// The preview templates folder (`templates/preview`).
    public var templates: URL

    /// A writer for `magazine` into `output`, using the templates in `templates`.
    public init(magazine: Magazine, output: URL, templates: URL) {
        self.magazine = magazine
        self.output = output
        self.templates = templates
    }

    /// The installed preview templates: `preview/` in `Templates.directory()`.
    public static func defaultTemplates(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Templates.NotFound) -> URL {
        try Templates.directory(environment: environment).appendingPathComponent("preview", isDirectory: true)
    }

    /// What a preview run wrote.
    public struct Report: Sendable, Equatable {
        /// The issues in the preview, newest first (by date, then name), as the index lists them.
        public var issues: [String]
        /// Pages rendered, over all issues.
        public var pages: Int
        /// Image files copied (normal and `@2x` counted apart, covers included).
        public var imagesCopied: Int
        /// Bytes of the copied images.
        public var bytesCopied: Int64
        /// `<output>/index.html`.
        public var index: URL
    }

    /// Writes the preview of `plans` (the issues `IssueValidator` found valid) and the index
    /// listing them. Files of earlier previews that are no longer used are left in place.
    ///
    /// An output folder that overlaps the magazine is refused before anything is written;
    /// images are copied from descriptors opened without following links (a link swapped in
    /// after validation is refused), and an issue's preview folder that is a link is not
    /// written through.
    public func write(_ plans: [IssuePlan]) throws(PreviewError) -> Report {
        do {
            try OutputFolderRule.check(output: output, magazine: magazine.folder)
        } catch {
            throw .outputOverlapsMagazine(error)
        }
        let templateSet = try PreviewTemplates(folder: templates)
        let staticFiles = try staticFileNames()
        let ordered = IssueOrder.sorted(plans) { ($0.metadata.date, $0.name) }
        let reserved = Set((["index.html"] + staticFiles).map { $0.lowercased() })
        for plan in ordered where reserved.contains(plan.name.lowercased()) {
            throw .issueNameCollides(issue: plan.name)
        }
        let root = try createFolder(output)

        let renderer = PreviewPageRenderer(schema: magazine.schema, templates: templateSet)
        var report = Report(
            issues: ordered.map(\.name), pages: 0, imagesCopied: 0, bytesCopied: 0,
            index: output.appendingPathComponent("index.html"))
        var cards: [String] = []
        for plan in ordered {
            let counts = try writeIssue(plan, in: root, renderer: renderer, templates: templateSet, report: &report)
            report.pages += counts.pages
            var values = issueValues(plan, fromIndex: true)
            values["link"] = .text(HTML.url(plan.name) + "/index.html")
            values["articleCount"] = .text(String(counts.articles))
            values["pageCount"] = .text(String(counts.pages))
            values["contentsText"] = .text(Self.contents(articles: counts.articles, pages: counts.pages))
            cards.append(try templateSet.issueCard.render(values))
        }
        for name in staticFiles {
            let source: OpenFile
            do {
                source = try OpenFile.open(templates.appendingPathComponent(name))  // our own templates
            } catch {
                throw .copy(source: error.path, destination: root.path(of: name), error)
            }
            try copy(source, named: name, in: root)
        }
        let index = try templateSet.index.render([
            "magazineTitle": .text(magazineTitle),
            "lang": .text(LanguageTag.of(issue: nil, magazine: magazine.language)),
            "issueCount": .text(String(ordered.count)),
            "issueCountText": .text(Self.plural(ordered.count, "issue")),
            "issues": .html(cards.joined(separator: "\n")),
        ])
        try writeRecord(in: root)
        try writeText(index, named: "index.html", in: root)
        return report
    }

    // MARK: Issues

    private var magazineTitle: String { magazine.title ?? magazine.folder.lastPathComponent }

    /// The placeholders an issue's card and reader page share.
    /// From the index (`fromIndex`), links go through the issue's folder.
    private func issueValues(_ plan: IssuePlan, fromIndex: Bool = false) -> [String: TemplateValue] {
        let cover = PreviewImage(name: plan.metadata.cover, folder: fromIndex ? plan.name : "")
        return [
            "magazineTitle": .text(magazineTitle),
            "name": .text(plan.name),
            "title": .text(plan.metadata.title),
            "date": .text(Self.displayDate(plan.metadata.date)),
            "dateISO": .text(PlistDate.format(plan.metadata.date)),
            "summary": .text(plan.metadata.summary ?? ""),
            "lang": .text(magazine.language(of: plan.metadata)),
            "coverSrc": .text(cover.src),
            "coverSrcset": .text(cover.srcset),
        ]
    }

    /// Writes `<output>/<name>/`: the images, then the reader page.
    private func writeIssue(
        _ plan: IssuePlan, in root: OpenFolder, renderer: PreviewPageRenderer, templates templateSet: PreviewTemplates,
        report: inout Report
    ) throws(PreviewError) -> (articles: Int, pages: Int) {
        let source: IssueSource
        let assets: OpenFolder
        let pages: PlistNode
        do {
            source = try IssueSource(plan)
            assets = try source.assets()
            pages = try source.config("pages.plist").root
        } catch {
            throw .issueUnreadable(issue: plan.name, error)
        }
        let rendered = try renderer.renderArticles(pages)

        let folder: OpenFolder
        do {
            folder = try root.makeFolder(plan.name)
        } catch {
            throw .folder(error)
        }
        var images = [plan.metadata.cover]
        images += plan.assets.filter { $0.kind == .image }.map(\.name)
        var seen: Set<String> = []
        for name in images where seen.insert(name).inserted {
            guard name.lowercased() != "index.html" else {
                throw .imageNameCollides(issue: plan.name, image: name)
            }
            for file in [name, RetinaName.of(name)] {
                let derived = plan.isDerived(file, retina: false)
                let image: OpenFile
                do {
                    // A normal size given only as its @2x master is derived from it, as the build does.
                    image = try source.file(derived ? RetinaName.of(file) : file, in: assets)
                    if derived {
                        report.bytesCopied += try NormalSizeWriter.write(from: image, named: file, in: folder, issue: plan.name)
                        report.imagesCopied += 1
                        continue
                    }
                } catch {
                    throw .issueUnreadable(issue: plan.name, error)
                }
                report.bytesCopied += try copy(image, named: file, in: folder)
                report.imagesCopied += 1
            }
        }

        var values = issueValues(plan)
        values["articles"] = .html(rendered.html)
        values["articleCount"] = .text(String(rendered.articles))
        values["pageCount"] = .text(String(rendered.pages))
        values["contentsText"] = .text(Self.contents(articles: rendered.articles, pages: rendered.pages))
        try writeText(try templateSet.issue.render(values), named: "index.html", in: folder)
        return (rendered.articles, rendered.pages)
    }

    // MARK: Text

    /// `1 March 2026`, in UTC like the catalog's dates.
    static func displayDate(_ date: Date) -> String {
        let day = PlistDate.components(date).day
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
            "December",
        ]
        return "\(day.day) \(months[day.month - 1]) \(day.year)"
    }

    static func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    static func contents(articles: Int, pages: Int) -> String {
        "\(plural(articles, "article")) · \(plural(pages, "page"))"
    }

    // MARK: Files

    /// Files of the templates folder copied as they are: everything but the HTML templates,
    /// README.md and hidden files.
    private func staticFileNames() throws(PreviewError) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: templates.path) else {
            throw .templateMissing(path: templates.path)
        }
        return names.filter { name in
            !name.hasPrefix(".") && !name.lowercased().hasSuffix(".html") && name != "README.md"
                && FileStatus.kind(of: templates.appendingPathComponent(name)).map { $0 != .folder } == true
        }.sorted()
    }

    private func createFolder(_ folder: URL) throws(PreviewError) -> OpenFolder {
        do {
            return try OpenFolder.open(folder, create: true)
        } catch {
            throw .folder(error)
        }
    }

    /// `.newsstand/web-edition.json`: the folder is a web edition, published at `PreviewURL`
    /// (`WebEditionRecord`, which `publish` reads).
    private func writeRecord(in root: OpenFolder) throws(PreviewError) {
        let folder: OpenFolder
        do {
            folder = try root.makeFolder(".newsstand")
        } catch {
            throw .folder(error)
        }
        do {
            let name = String(WebEditionRecord.path.split(separator: "/").last ?? "")
            // Best effort, like every file of the preview: it is written again by the next run.
            try AtomicFile.write(
                WebEditionRecord(previewURL: magazine.previewURL).encoded(), named: name, in: folder, .bestEffort)
        } catch {
            throw .write(error)
        }
    }

    /// Best effort, like every file of the preview: it is written again by the next run.
    private func writeText(_ text: String, named name: String, in folder: OpenFolder) throws(PreviewError) {
        do {
            try AtomicFile.write(Data(text.utf8), named: name, in: folder, .bestEffort)
        } catch {
            throw .write(error)
        }
    }

    /// Copies an open file under a temporary name, then renames it into place; returns its size.
    @discardableResult
    private func copy(_ source: OpenFile, named name: String, in folder: OpenFolder) throws(PreviewError) -> Int64 {
        do {
            let pending = try AtomicFile.create(named: name, in: folder)
            let size = try FileCopy.copy(source, to: pending.file)
            // Best effort: the preview is written again by the next run.
            try pending.commit(.bestEffort)
            return size
        } catch {
            throw .copy(source: source.path, destination: folder.path(of: name), error)
        }
    }
}
