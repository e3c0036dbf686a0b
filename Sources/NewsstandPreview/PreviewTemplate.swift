import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandFormat

/// A value put into a preview template: text is escaped for HTML, a fragment is inserted as is.
enum TemplateValue {
    /// User text (titles, summaries, property values, file names): escaped.
    case text(String)
    /// HTML made by the writer from other templates: inserted unchanged.
    case html(String)
}

/// One HTML file of `templates/preview/` with `{{name}}` placeholders.
///
/// Rendering replaces every placeholder with its value; a placeholder the writer does not
/// provide is an error naming the file, so a typo in a restyled template is caught at once.
struct PreviewTemplate {
    /// The file name, for messages (`issue.html`).
    let name: String
    let text: String

    init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// Reads `name` from the templates `folder`.
    init(named name: String, in folder: URL) throws(PreviewError) {
        let url = folder.appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw .templateMissing(path: url.path)
        }
        self.init(name: name, text: String(decoding: data, as: UTF8.self))
    }

    /// The template with its placeholders replaced.
    func render(_ values: [String: TemplateValue]) throws(PreviewError) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw .templateSyntax(file: name, problem: "a '{{' is never closed with '}}'")
            }
            let key = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            switch values[key] {
            case .text(let value)?: result += Markup.escape(value)
            case .html(let value)?: result += value
            case nil:
                throw .templateSyntax(
                    file: name,
                    problem:
                        "unknown placeholder {{\(key)}}; this template knows: \(values.keys.sorted().joined(separator: ", "))")
            }
            rest = rest[close.upperBound...]
        }
        result += rest
        return result
    }
}

/// URL forms of file names in HTML.
enum HTML {
    /// Characters left as they are in a relative URL made from a file name: ASCII letters,
    /// digits and `-._~@`. Everything else, including spaces and commas (which would break a
    /// `srcset`), is percent-encoded.
    private static let urlSafe = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~@")

    /// A file name as a relative URL (not yet HTML-escaped).
    static func url(_ fileName: String) -> String {
        fileName.addingPercentEncoding(withAllowedCharacters: urlSafe) ?? fileName
    }
}
