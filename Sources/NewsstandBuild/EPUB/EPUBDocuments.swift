import Foundation
import NewsstandCore
import NewsstandFormat

/// The text files of an issue's EPUB (EPUB 3.2, fixed layout), every value from outside put
/// in through `Markup.escape`. The package and its documents live in `EPUB/`; the names are
/// ours (`1-1.xhtml`, `images/1-1.png`), never the issue's file names, so no name needs
/// escaping in a URL and every one is a portable OCF file name.
enum EPUBDocuments {
    /// The package document's path in the container.
    static let packagePath = "EPUB/package.opf"

    /// A picture the EPUB holds: its path under `EPUB/`, its manifest id, media type and pixels.
    struct Image: Equatable {
        var href: String
        var id: String
        var mediaType: String
        var width: Int
        var height: Int
    }

    /// What the package document says of the issue.
    struct Metadata {
        var identifier: String
        var title: String
        var date: Date
        var publisher: String
        var summary: String?
        /// `dc:language` and every document's `xml:lang`: `Magazine.language(of:)`.
        var language: String
    }

    /// `META-INF/container.xml`: where the package document is.
    static let container = """
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
          <rootfiles>
            <rootfile full-path="\(packagePath)" media-type="application/oebps-package+xml"/>
          </rootfiles>
        </container>

        """

    /// `EPUB/page.css`: each page is its image, edge to edge.
    static let stylesheet = "html, body { margin: 0; padding: 0; }\nimg { display: block; }\n"

    /// `EPUB/package.opf`. `rendition:spread` is `none`: a Newsstand issue is read a page at a
    /// time and its articles have any number of pages, so a reading system pairing them into
    /// spreads would join pages never designed side by side. The modification time is the
    /// issue's Date, as every entry's time is: the same issue gives the same bytes.
    static func package(_ metadata: Metadata, pages: [EPUBPage], images: [String: Image], cover: Image) -> String {
        let date = PlistDate.format(metadata.date)
        var manifest = [
            item(id: "nav", href: "nav.xhtml", type: "application/xhtml+xml", properties: "nav"),
            item(id: "css", href: "page.css", type: "text/css"),
            item(id: cover.id, href: cover.href, type: cover.mediaType, properties: "cover-image"),
        ]
        var listed: Set<String> = [cover.href]
        for page in pages {
            manifest.append(item(id: pageID(page), href: page.document, type: "application/xhtml+xml"))
            if let image = images[page.baseImage], listed.insert(image.href).inserted {
                manifest.append(item(id: image.id, href: image.href, type: image.mediaType))
            }
        }
        // An empty `dc:description` is an EPUBCheck error: a blank Summary is left out.
        let summary = metadata.summary.flatMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? nil : $0 }
        let description = summary.map { "\n    <dc:description>\(Markup.escape($0))</dc:description>" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid" xml:lang="\(Markup.escape(metadata.language))">
              <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
                <dc:identifier id="uid">\(Markup.escape(metadata.identifier))</dc:identifier>
                <dc:title>\(Markup.escape(metadata.title))</dc:title>
                <dc:language>\(Markup.escape(metadata.language))</dc:language>
                <dc:date>\(date)</dc:date>
                <dc:publisher>\(Markup.escape(metadata.publisher))</dc:publisher>\(description)
                <meta property="dcterms:modified">\(date)</meta>
                <meta property="rendition:layout">pre-paginated</meta>
                <meta property="rendition:orientation">auto</meta>
                <meta property="rendition:spread">none</meta>
              </metadata>
              <manifest>
            \(manifest.map { "    " + $0 }.joined(separator: "\n"))
              </manifest>
              <spine>
            \(pages.map { "    <itemref idref=\"\(pageID($0))\"/>" }.joined(separator: "\n"))
              </spine>
            </package>

            """
    }

    /// `EPUB/nav.xhtml`: one entry per article (at its first page), and every page in a page list.
    static func navigation(title: String, language: String, pages: [EPUBPage]) -> String {
        let articles = pages.filter { $0.number == 1 }.map {
            "        <li><a href=\"\($0.document)\">Article \($0.article)</a></li>"
        }
        let list = pages.enumerated().map { "        <li><a href=\"\($1.document)\">\($0 + 1)</a></li>" }
        let body =
            [
                "    <nav epub:type=\"toc\" id=\"toc\">", "      <h1>\(Markup.escape(title))</h1>", "      <ol>",
            ] + articles + [
                "      </ol>", "    </nav>", "    <nav epub:type=\"page-list\" id=\"page-list\" hidden=\"hidden\">", "      <ol>",
            ] + list + ["      </ol>", "    </nav>"]
        return document(title: title, language: language, head: "", body: body.joined(separator: "\n"))
    }

    /// A page's content document: its image at its pixel size, the viewport set to it.
    static func page(_ page: EPUBPage, position: Int, image: Image, issueTitle: String, language: String) -> String {
        let label = Markup.escape("\(issueTitle): page \(position)")
        return document(
            title: "\(issueTitle): page \(position)", language: language,
            head: """

                    <meta name="viewport" content="width=\(image.width), height=\(image.height)"/>
                    <link rel="stylesheet" type="text/css" href="page.css"/>
                """,
            body: "    <img src=\"\(image.href)\" width=\"\(image.width)\" height=\"\(image.height)\" alt=\"\(label)\"/>")
    }

    private static func document(title: String, language: String, head: String, body: String) -> String {
        let lang = Markup.escape(language)
        return
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="\(lang)" lang="\(lang)">
              <head>
                <meta charset="UTF-8"/>
                <title>\(Markup.escape(title))</title>\(head)
              </head>
              <body>
            \(body)
              </body>
            </html>

            """
    }

    private static func pageID(_ page: EPUBPage) -> String { "page-\(page.article)-\(page.number)" }

    private static func item(id: String, href: String, type: String, properties: String? = nil) -> String {
        "<item id=\"\(id)\" href=\"\(href)\" media-type=\"\(type)\"\(properties.map { " properties=\"\($0)\"" } ?? "")/>"
    }
}
