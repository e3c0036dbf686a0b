import Foundation
import NewsstandCore
import NewsstandFormat

/// A Newsstand Atom feed (RFC 4287 with Apple's `news:` extension, which App Store Connect
/// read to show issues).
///
/// The RFC's own assertions hold: the feed has an `id`, `title`, `updated`, an `author` (the
/// magazine's Publisher, else its Title) and a `self` link; every entry has an `id`, `title`,
/// `updated` and a `link rel="alternate"`: its page in the web preview when the magazine says
/// where that is published (`PreviewURL`), with the normal bundle as `rel="enclosure"`; else
/// the normal bundle itself (with its type and length). Every
/// `id` is an absolute IRI that never changes: a `tag:` URI (RFC 4151) from the BaseURL's host,
/// a fixed date and the BaseURL's path (plus the issue name for an entry). An entry's `updated`
/// is when its metadata last changed (`EntryUpdateRecord`); `published` is its Date; the
/// feed's `updated` is the latest entry's. Nothing comes from the clock directly, so the same
/// records give the same bytes.
struct AtomFeed {
    var magazineTitle: String
    var author: String
    var baseURL: URL
    /// Where the web preview is published, when it is: entries link their page there.
    var previewURL: URL? = nil

    /// The tag date of every id. Fixed, so that an id never changes (an entry whose id changed
    /// would be a new issue to a store): the day this form of id was introduced.
    static let tagDate = "2026-11-30"

    /// One entry: the catalog's, and when its metadata last changed.
    struct Entry {
        var catalog: CatalogEntry
        var updated: Date
    }

    /// The feed's `id`: `tag:<host>,2026-11-30:<BaseURL path>`.
    var feedID: String { "tag:\(Self.authority(of: baseURL)),\(Self.tagDate):\(Self.path(of: baseURL))" }

    /// An entry's `id`: the feed's with the name after the path.
    func entryID(_ name: String) -> String { feedID + name }

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
              <link rel="self" type="application/atom+xml" href="\(Markup.escape(baseURL.absoluteString + Feed.atom.fileName))"/>

            """
        for entry in entries {
            let catalog = entry.catalog
            let length = catalog.contentSize.map { " length=\"\($0)\"" } ?? ""
            let bundle = "type=\"application/zip\" href=\"\(Markup.escape(catalog.content))\"\(length)/>"
            let links: String
            if let previewURL {
                let page = previewURL.absoluteString + (catalog.name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? catalog.name) + "/"
                links = "<link rel=\"alternate\" type=\"text/html\" href=\"\(Markup.escape(page))\"/>\n        <link rel=\"enclosure\" " + bundle
            } else {
                links = "<link rel=\"alternate\" " + bundle
            }
            xml += """
                  <entry>
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

    /// The tag's authority: the host in lowercase (a tag has no port; an IPv6 literal, which
    /// is no DNS name, keeps its digits with `-` for `:`).
    static func authority(of url: URL) -> String {
        let host = (url.host ?? "").lowercased()
        return host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).replacingOccurrences(of: ":", with: "-")
    }

    /// The BaseURL's path as it is written (percent-escapes kept), ending in `/`.
    static func path(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? "/"
        let rooted = path.hasPrefix("/") ? path : "/" + path
        return rooted.hasSuffix("/") ? rooted : rooted + "/"
    }
}
