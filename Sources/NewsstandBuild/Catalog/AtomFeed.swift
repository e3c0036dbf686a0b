import Foundation
import NewsstandCore
import NewsstandFormat

/// A Newsstand Atom feed (the format App Store Connect read to show issues): per issue `id`,
/// `updated`, `published`, `summary` and `news:cover_art_icons` with the `@2x` cover as the
/// `SOURCE` icon. Dates come from the issues, never the clock, so the feed is reproducible.
struct AtomFeed {
    var magazineTitle: String
    var baseURL: URL
    var output: URL

    /// The longest summary the feed accepts.
    static let maximumSummaryLength = 1000
    /// The shortest longest-side, in pixels, of a `SOURCE` cover.
    static let minimumCoverSide = 1024

    func render(_ entries: [CatalogEntry]) -> String {
        let updated = entries.map(\.date).max().map(PlistDate.format) ?? "1970-01-01T00:00:00Z"
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand">
              <id>\(Markup.escape(baseURL.absoluteString))</id>
              <title>\(Markup.escape(magazineTitle))</title>
              <updated>\(updated)</updated>

            """
        for entry in entries {
            let date = PlistDate.format(entry.date)
            xml += """
                  <entry>
                    <id>\(Markup.escape(entry.name))</id>
                    <title>\(Markup.escape(entry.title))</title>
                    <updated>\(date)</updated>
                    <published>\(date)</published>
                    <summary>\(Markup.escape(entry.summary ?? entry.title))</summary>
                    <news:cover_art_icons>
                      <news:cover_art_icon size="SOURCE" src="\(Markup.escape(entry.coverURL(retina: true)))"/>
                    </news:cover_art_icons>
                  </entry>

                """
        }
        return xml + "</feed>\n"
    }

    /// The feed's own rules: a summary of at most 1,000 characters, and a PNG `SOURCE` cover
    /// at least 1,024 pixels on its longest side.
    func check(_ entries: [CatalogEntry], manifests: [BuildManifest]) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for manifest in manifests {
            let issueFile = SourceLocation(file: Magazine.displayPath(issue: manifest.name, "issue.plist"))
            let summary = manifest.metadata.summary ?? ""
            if summary.isEmpty {
                diagnostics.append(
                    Diagnostic(
                        .feedSummary, "issue '\(manifest.name)' has no Summary; the Atom feed uses its title", at: issueFile))
            } else if summary.count > Self.maximumSummaryLength {
                diagnostics.append(
                    Diagnostic(
                        .feedSummary,
                        "issue '\(manifest.name)' Summary has \(summary.count) characters; the Atom feed allows \(Self.maximumSummaryLength)",
                        at: issueFile))
            }
            let cover = output.appendingPathComponent(manifest.name).appendingPathComponent(manifest.retinaCover.file)
            // Our own output, read through links (a gathered output may link issue folders).
            let probe = (try? OpenFile.open(cover)).map(ImageSize.probe)
            let size = try? probe?.size.get()
            let isPNG = probe?.signature == .png
            if !isPNG || max(size?.width ?? 0, size?.height ?? 0) < Self.minimumCoverSide {
                diagnostics.append(
                    Diagnostic(
                        .feedCover,
                        "issue '\(manifest.name)' cover '\(manifest.retinaCover.file)' is \(size.map(\.description) ?? "unreadable")\(isPNG ? "" : ", not PNG"); the Atom feed's SOURCE cover must be a PNG at least \(Self.minimumCoverSide) px on its longest side",
                        at: issueFile))
            }
        }
        return diagnostics
    }
}
