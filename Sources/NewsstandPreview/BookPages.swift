import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat

/// The pages of a Baker book (`newsstand build --feed shelf`), rendered by the preview's own
/// page renderer and templates, so a page looks in a Baker app as it does in the preview: one
/// HTML document per page, its images with `srcset` naming both sizes, styled by the
/// templates' `preview.css` (shipped in the book as `book.css`).
public struct BookPages: BookPageRenderer {
    private let schema: PageClassSchema
    private let templates: PreviewTemplates
    public let stylesheet: String

    /// A renderer for `schema`'s classes with the preview templates in `templates`.
    public init(schema: PageClassSchema, templates: URL) throws(PreviewError) {
        self.schema = schema
        self.templates = try PreviewTemplates(folder: templates)
        let css = templates.appendingPathComponent("preview.css")
        guard let data = FileManager.default.contents(atPath: css.path) else {
            throw .templateMissing(path: css.path)
        }
        stylesheet = String(decoding: data, as: UTF8.self)
    }

    public func page(_ page: PlistNode, article: Int, number: Int, title: String, imageFolder: String) throws -> String {
        let body = try PreviewPageRenderer(schema: schema, templates: templates, imageFolder: imageFolder)
            .render(page, article: article, page: number)
        return """
            <!DOCTYPE html>
            <html>
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Markup.escape(title)): article \(article), page \(number)</title>
            <link rel="stylesheet" href="book.css">
            </head>
            <body class="reader-page book-page">
            \(body)
            </body>
            </html>

            """
    }
}
