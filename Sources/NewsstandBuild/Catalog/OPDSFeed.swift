import Foundation
import NewsstandCore
import NewsstandFormat

/// `opds.json`: the magazine as an OPDS 2.0 catalog (`application/opds+json`), which Readium
/// apps, Thorium, KOReader and library apps browse.
///
/// The feed has the magazine's title, identifier (its `TagURI`) and `modified` (the latest
/// publication's), and `self` and `start` links to itself. Each issue is a publication, newest
/// first: its title, identifier (the issue's `TagURI`, as in the Atom feed and the EPUB),
/// `published` (its Date), `modified` (when its metadata last changed: `EntryUpdateRecord`,
/// the Atom entry's `updated`), description (its Summary), publisher, language (`Magazine.language(of:)`), the magazine it belongs
/// to, and its covers as `images`, `@2x` first, with their pixel sizes and types. Its links are
/// acquisitions of what readers can open: the EPUB when the issue has one, then the normal
/// bundle (`application/zip`), each with its size. A free issue's links are `open-access`; a
/// paid issue's are `buy` (the host answers them only for readers it entitles), and its
/// ProductID is an `altIdentifier` whose scheme is StoreKit's product identifier (OPDS has
/// no member for a store's product; an alternate identifier with a scheme is what the
/// manifest model gives for "this publication is also known as"). No price is given: the
/// store sets it.
///
/// Nothing comes from the clock directly, and keys are sorted: the same manifests and records
/// give the same bytes.
struct OPDSFeed {
    /// The feed's file in the output folder.
    static let fileName = "opds.json"
    static let mediaType = "application/opds+json"
    static let openAccess = "http://opds-spec.org/acquisition/open-access"
    static let buy = "http://opds-spec.org/acquisition/buy"
    /// What a ProductID is: StoreKit's product identifier (an In-App Purchase product).
    static let productIDScheme = "https://developer.apple.com/documentation/storekit/product/id"

    var magazineTitle: String
    var publisher: String
    var baseURL: URL
    /// magazine.plist's `Language`: the language of an issue that gives none.
    var magazineLanguage: String? = nil

    /// One issue: its manifest and catalog entry, when its metadata last changed, and what its
    /// covers are (read from the files: nil when unreadable).
    struct Entry {
        var manifest: BuildManifest
        var catalog: CatalogEntry
        var updated: Date
        var cover: Picture?
        var retinaCover: Picture?
    }

    /// An image's media type and, when its header gives them, its pixels.
    struct Picture: Equatable {
        var type: String
        var size: ImageSize?

        /// What the header `probe` of the file `name` says; the name's extension when the
        /// header names no format OPDS lists.
        init?(_ probe: ImageSize.Probe?, name: String) {
            let formats = [probe?.signature, FileSignature.expected(forFileName: name)].compactMap { $0 }
            guard let type = formats.lazy.compactMap({ Self.mediaTypes[$0] }).first else { return nil }
            self.type = type
            size = try? probe?.size.get()
        }

        /// The image formats OPDS clients show that newsstand recognises.
        static let mediaTypes: [FileSignature: String] = [
            .png: "image/png", .jpeg: "image/jpeg", .gif: "image/gif", .webp: "image/webp",
        ]
    }

    /// The feed's own URL.
    var selfURL: String { baseURL.absoluteString + Self.fileName }

    func document(_ entries: [Entry]) -> OPDSDocument {
        let modified = entries.map(\.updated).max().map(PlistDate.format)
        let own = { (rel: String) in OPDSDocument.Link(href: selfURL, type: Self.mediaType, rel: rel) }
        var document = OPDSDocument(
            metadata: .init(identifier: TagURI.magazine(baseURL), title: magazineTitle, modified: modified),
            links: [own("self"), own("start")])
        if entries.isEmpty {
            var start = own("start")
            start.title = magazineTitle.isEmpty ? "No issues yet" : magazineTitle
            document.navigation = [start]
        } else {
            document.publications = entries.map(publication)
        }
        return document
    }

    /// `opds.json`'s bytes: sorted keys, pretty-printed, a final newline. `/` stays escaped
    /// (`<\/script>`, `https:\/\/`), JSONEncoder's default: web readers paste OPDS into pages,
    /// and a title holding `</script>` must not end the script element it lands in.
    func render(_ entries: [Entry]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Strings and integers always encode.
        var data = (try? encoder.encode(document(entries))) ?? Data()
        data.append(0x0A)
        return data
    }

    private func publication(_ entry: Entry) -> OPDSDocument.Publication {
        let manifest = entry.manifest
        let catalog = entry.catalog
        let paid = catalog.access == .paid
        let rel = paid ? Self.buy : Self.openAccess
        var links: [OPDSDocument.Link] = []
        if let epub = manifest.epub, let href = manifest.epubURL(baseURL: baseURL) {
            links.append(.init(href: href, type: "application/epub+zip", rel: rel, title: "EPUB", size: epub.size))
        }
        links.append(
            .init(href: catalog.content, type: "application/zip", rel: rel, title: "Newsstand bundle", size: manifest.bundle.size)
        )
        var images: [OPDSDocument.Link] = []
        for (retina, picture) in [(true, entry.retinaCover), (false, entry.cover)] {
            guard let picture else { continue }
            images.append(
                .init(
                    href: manifest.coverURL(baseURL: baseURL, retina: retina), type: picture.type, width: picture.size?.width,
                    height: picture.size?.height))
        }
        var metadata = OPDSDocument.PublicationMetadata(
            identifier: TagURI.issue(catalog.name, baseURL: baseURL), title: catalog.title,
            published: PlistDate.format(catalog.date), modified: PlistDate.format(entry.updated), description: catalog.summary,
            publisher: publisher, belongsTo: magazineTitle.isEmpty ? nil : .init(magazine: magazineTitle),
            language: LanguageTag.of(issue: manifest.metadata.language, magazine: magazineLanguage))
        if paid, let product = catalog.productID {
            metadata.altIdentifier = [.init(value: product, scheme: Self.productIDScheme)]
        }
        return OPDSDocument.Publication(metadata: metadata, links: links, images: images.isEmpty ? nil : images)
    }
}
