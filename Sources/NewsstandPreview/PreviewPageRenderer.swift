import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat

/// The HTML templates of `templates/preview/`, read once per preview.
struct PreviewTemplates {
    let index: PreviewTemplate
    let issueCard: PreviewTemplate
    let issue: PreviewTemplate
    let article: PreviewTemplate
    let simplePage: PreviewTemplate
    let photoPage: PreviewTemplate
    let photo: PreviewTemplate
    let genericPage: PreviewTemplate

    init(folder: URL) throws(PreviewError) {
        index = try PreviewTemplate(named: "index.html", in: folder)
        issueCard = try PreviewTemplate(named: "issue-card.html", in: folder)
        issue = try PreviewTemplate(named: "issue.html", in: folder)
        article = try PreviewTemplate(named: "article.html", in: folder)
        simplePage = try PreviewTemplate(named: "page-simple.html", in: folder)
        photoPage = try PreviewTemplate(named: "page-photo.html", in: folder)
        photo = try PreviewTemplate(named: "photo.html", in: folder)
        genericPage = try PreviewTemplate(named: "page-generic.html", in: folder)
    }
}

/// An image as the preview links it: the normal file for 1x screens and its `@2x` file for 2x.
struct PreviewImage {
    let name: String
    /// The folder the links go through (`a-1/` from the index), or empty for the same folder.
    let folder: String

    init(name: String, folder: String = "") {
        self.name = name
        self.folder = folder.isEmpty ? "" : HTML.url(folder) + "/"
    }

    /// The `src` value: the normal file.
    var src: String { folder + HTML.url(name) }
    /// The `srcset` value: `x.png 1x, x@2x.png 2x`.
    var srcset: String { "\(folder)\(HTML.url(name)) 1x, \(folder)\(HTML.url(RetinaName.of(name))) 2x" }
}

/// Renders the pages of one issue to HTML by their class: `SimplePage` as its base image,
/// `PhotoPage` as its base image and a gallery, any other class as a labelled placeholder
/// listing its properties (with the images among them, found through the schema).
struct PreviewPageRenderer {
    let schema: PageClassSchema
    let templates: PreviewTemplates
    /// The folder images are linked through (`assets` in a Baker book), or empty for the page's own.
    var imageFolder = ""

    /// The pages of a page config, rendered as articles; also counts the pages.
    func renderArticles(_ root: PlistNode) throws(PreviewError) -> (html: String, articles: Int, pages: Int) {
        var html: [String] = []
        var pageCount = 0
        let articles = root.array ?? []
        for (a, article) in articles.enumerated() {
            var pages: [String] = []
            for (p, page) in (article.array ?? []).enumerated() {
                pages.append(try render(page, article: a + 1, page: p + 1))
            }
            pageCount += pages.count
            html.append(
                try templates.article.render([
                    "article": .text(String(a + 1)),
                    "articleCount": .text(String(articles.count)),
                    "pageCount": .text(String(pages.count)),
                    "pages": .html(pages.joined(separator: "\n")),
                ]))
        }
        return (html.joined(separator: "\n"), articles.count, pageCount)
    }

    /// One page (article and page numbers from 1).
    func render(_ page: PlistNode, article: Int, page number: Int) throws(PreviewError) -> String {
        let className = page["class"]?.string ?? "(no class)"
        let properties = page["properties"]
        var values: [String: TemplateValue] = [
            "id": .text("p\(article)-\(number)"),
            "article": .text(String(article)),
            "page": .text(String(number)),
            "className": .text(className),
            "label": .text("Article \(article), page \(number)"),
        ]
        let base = properties?["baseImage"]?.string.map { PreviewImage(name: $0, folder: imageFolder) }
        if let base {
            values["baseImageSrc"] = .text(base.src)
            values["baseImageSrcset"] = .text(base.srcset)
        }
        switch className {
        case "SimplePage" where base != nil:
            return try templates.simplePage.render(values)
        case "PhotoPage" where base != nil:
            if let photos = try renderPhotos(properties?["photos"]) {
                values["photos"] = .html(photos.html)
                values["photoCount"] = .text(String(photos.count))
                return try templates.photoPage.render(values)
            }
        default:
            break
        }
        let specs = schema.properties(of: className) ?? []
        values["properties"] = .html(renderDictionary(properties, specs: specs))
        values["description"] = .text(
            schema.properties(of: className) == nil
                ? "This page class is not in the schema."
                : "No preview for this page class; its properties:")
        return try templates.genericPage.render(values)
    }

    /// A `PhotoPage`'s gallery, or nil when `photos` is not an array of photo/thumbnail dicts.
    private func renderPhotos(_ node: PlistNode?) throws(PreviewError) -> (html: String, count: Int)? {
        guard let items = node?.array else { return nil }
        var html: [String] = []
        for (i, item) in items.enumerated() {
            guard let photo = item["photo"]?.string, let thumbnail = item["thumbnail"]?.string else { return nil }
            let (full, thumb) = (
                PreviewImage(name: photo, folder: imageFolder), PreviewImage(name: thumbnail, folder: imageFolder)
            )
            html.append(
                try templates.photo.render([
                    "number": .text(String(i + 1)),
                    "count": .text(String(items.count)),
                    "photoSrc": .text(full.src),
                    "photoSrcset": .text(full.srcset),
                    "thumbnailSrc": .text(thumb.src),
                    "thumbnailSrcset": .text(thumb.srcset),
                ]))
        }
        return (html.joined(separator: "\n"), items.count)
    }

    // MARK: Properties of other classes

    /// A dict's entries as a definition list, typed by `specs` where they declare the key.
    private func renderDictionary(_ node: PlistNode?, specs: [PropertySpec]) -> String {
        guard let entries = node?.entries, !entries.isEmpty else { return "<p class=\"props__empty\">(no properties)</p>" }
        var html = "<dl class=\"props\">"
        for entry in entries {
            let type = specs.first { $0.name == entry.key }?.type
            html += "<div class=\"props__item\"><dt>\(Markup.escape(entry.key))"
            html += " <span class=\"props__type\">\(Markup.escape(type?.description ?? entry.node.kindName))</span></dt>"
            html += "<dd>\(renderValue(entry.node, type: type))</dd></div>"
        }
        return html + "</dl>"
    }

    /// One value, shown by its schema type when known, else by its plist kind.
    private func renderValue(_ node: PlistNode, type: PropertyType?) -> String {
        switch (type, node.value) {
        case (.image?, .scalar(.string(let name))):
            let image = PreviewImage(name: name, folder: imageFolder)
            return
                "<figure class=\"props__image\"><img src=\"\(Markup.escape(image.src))\" srcset=\"\(Markup.escape(image.srcset))\""
                + " alt=\"\(Markup.escape(name))\" loading=\"lazy\"><figcaption>\(Markup.escape(name))</figcaption></figure>"
        case (.movie?, .scalar(.string(let name))), (.file?, .scalar(.string(let name))):
            return "<code class=\"props__file\">\(Markup.escape(name))</code>"
        case (.url?, .scalar(.string(let text))):
            if let scheme = URL(string: text)?.scheme?.lowercased(), scheme == "http" || scheme == "https" {
                return "<a class=\"props__url\" href=\"\(Markup.escape(text))\">\(Markup.escape(text))</a>"
            }
            return "<span class=\"props__text\">\(Markup.escape(text))</span>"
        case (_, .array(let items)):
            var itemType: PropertyType?
            if case .array(let of, _, _)? = type { itemType = of }
            if items.isEmpty { return "<span class=\"props__text\">(empty)</span>" }
            return "<ol class=\"props__list\">"
                + items.map { "<li>\(renderValue($0, type: itemType))</li>" }.joined() + "</ol>"
        case (_, .dictionary):
            var specs: [PropertySpec] = []
            if case .dictionary(let own)? = type { specs = own }
            return renderDictionary(node, specs: specs)
        case (_, .scalar(let value)): return renderScalar(value)
        }
    }

    /// A string, number, boolean, date or data as text (a nested plain array or dict, which no
    /// reader of a file makes, as its kind).
    private func renderScalar(_ value: PlistValue) -> String {
        switch value {
        case .string(let text): return "<span class=\"props__text\">\(Markup.escape(text))</span>"
        case .integer(let n): return "<span class=\"props__text\">\(n)</span>"
        case .real(let x): return "<span class=\"props__text\">\(x)</span>"
        case .boolean(let b): return "<span class=\"props__text\">\(b ? "true" : "false")</span>"
        case .date(let d): return "<time class=\"props__text\">\(PlistDate.format(d))</time>"
        case .data(let bytes): return "<span class=\"props__text\">(\(bytes.count) bytes of data)</span>"
        case .array, .dictionary: return "<span class=\"props__text\">(\(value.kindName))</span>"
        }
    }
}
