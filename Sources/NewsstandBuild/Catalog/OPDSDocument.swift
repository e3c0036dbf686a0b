/// An OPDS 2.0 feed as `opds.json` holds it (the members `OPDSFeed` writes, named as the
/// OPDS 2.0 draft and Readium's Web Publication Manifest name them), encoded by `JSONEncoder`:
/// every string escaped as JSON requires, whatever a title holds.
struct OPDSDocument: Encodable, Equatable {
    var metadata: FeedMetadata
    var links: [Link]
    /// One per issue, newest first; absent when there is none (the feed then has `navigation`).
    var publications: [Publication]?
    /// A feed without publications must still have a collection: one link back to itself.
    var navigation: [Link]?

    struct FeedMetadata: Encodable, Equatable {
        var identifier: String
        var title: String
        var modified: String?
    }

    /// A Link Object (`href` required; the rest when known).
    struct Link: Encodable, Equatable {
        var href: String
        var type: String
        var rel: String?
        var title: String?
        var width: Int?
        var height: Int?
        var size: Int64?
    }

    struct Publication: Encodable, Equatable {
        var metadata: PublicationMetadata
        /// Acquisition links: the EPUB when built, then the normal bundle.
        var links: [Link]
        /// The covers, the `@2x` one first (absent when neither can be read: the member may not be empty).
        var images: [Link]?
    }

    struct PublicationMetadata: Encodable, Equatable {
        var type = "http://schema.org/PublicationIssue"
        var identifier: String
        var title: String
        var published: String
        var modified: String
        var description: String?
        var publisher: String
        var belongsTo: BelongsTo?
        /// The BCP 47 language tag (`Magazine.language(of:)`).
        var language: String
        var layout = "fixed"
        var altIdentifier: [AltIdentifier]?

        enum CodingKeys: String, CodingKey {
            case type = "@type"
            case identifier, title, published, modified, description, publisher, belongsTo, language, layout, altIdentifier
        }
    }

    /// The magazine the issue is part of.
    struct BelongsTo: Encodable, Equatable {
        var magazine: String
    }

    /// Another identifier of the publication, and what kind it is.
    struct AltIdentifier: Encodable, Equatable {
        var value: String
        var scheme: String
    }
}
