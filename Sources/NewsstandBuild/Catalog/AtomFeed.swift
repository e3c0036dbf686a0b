import Foundation
import NewsstandCore
import NewsstandFormat

/// A Newsstand Atom feed (RFC 4287 with Apple's `news:` extension, which App Store Connect
/// read to show issues).
///
/// The RFC's own assertions hold: the feed has an `id`, `title`, `updated`, an `author` (the
/// magazine's Publisher, else its Title) and a `self` link; every entry has an `id`, `title`,
/// `updated`, an `xml:lang` (the issue's language: `Magazine.language(of:)`) and a `link rel="alternate"`: its page in the web preview when the magazine says
/// where that is published (`PreviewURL`), with the normal bundle as `rel="enclosure"`; else
/// the normal bundle itself (with its type and length). Every `id` is an absolute IRI that
/// never changes (`TagURI`). An entry's `updated` is when its metadata last changed
/// (`EntryUpdateRecord`); `published` is its Date; the feed's `updated` is the latest entry's.
/// Nothing comes from the clock directly, so the same records give the same bytes.
struct AtomFeed {
    var magazineTitle: String
    var author: String
    var baseURL: URL
    /// Where the web preview is published, when it is: entries link their page there.
    var previewURL: URL? = nil

    /// The feed's file in the output folder.
    static let fileName = "atom.xml"

    /// One entry: the catalog's, when its metadata last changed, and the issue's language
    /// (`Magazine.language(of:)`: the entry's `xml:lang`).
    struct Entry {
        var catalog: CatalogEntry
        var updated: Date
        var language: String = LanguageTag.fallback
    }

    /// The feed's `id`: the magazine's `TagURI`.
    var feedID: String { TagURI.magazine(baseURL) }

    /// An entry's `id`: the issue's `TagURI`.
    func entryID(_ name: String) -> String { TagURI.issue(name, baseURL: baseURL) }

    func render(_ entries: [Entry]) -> String {
        let updated = entries.map(\.updated).max().map(PlistDate.format) ?? "1970-01-01T00:00:00Z"
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand">
              <id>\(Markup.escape(feedID))</id>
              <title>\(Markup.escape(magazineTitle))</title>
              <updated>\(updated)</updated>
              <author>
                <name>\(Markup.escape(author))</name>
              </author>
              <link rel="self" type="application/atom+xml" href="\(Markup.escape(baseURL.absoluteString + Self.fileName))"/>

            """
        for entry in entries {
            let catalog = entry.catalog
            let length = catalog.contentSize.map { " length=\"\($0)\"" } ?? ""
            let bundle = "type=\"application/zip\" href=\"\(Markup.escape(catalog.content))\"\(length)/>"
            let links: String
            if let previewURL {
                let page =
                    previewURL.absoluteString
                    + (catalog.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? catalog.name) + "/"
                links =
                    "<link rel=\"alternate\" type=\"text/html\" href=\"\(Markup.escape(page))\"/>\n        <link rel=\"enclosure\" "
                    + bundle
            } else {
                links = "<link rel=\"alternate\" " + bundle
            }
            xml += """
                  <entry xml:lang="\(Markup.escape(entry.language))">
                    <id>\(Markup.escape(entryID(catalog.name)))</id>
                    <title>\(Markup.escape(catalog.title))</title>
                    <updated>\(PlistDate.format(entry.updated))</updated>
                    <published>\(PlistDate.format(catalog.date))</published>
                    <summary>\(Markup.escape(catalog.summary ?? catalog.title))</summary>
                    \(links)
                    <news:cover_art_icons>
                      <news:cover_art_icon size="SOURCE" src="\(Markup.escape(catalog.coverURL(retina: true)))"/>
                    </news:cover_art_icons>
                  </entry>

                """
        }
        return xml + "</feed>\n"
    }
}
