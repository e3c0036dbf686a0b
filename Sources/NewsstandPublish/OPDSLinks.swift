import Foundation
import NewsstandCore

/// What publish reads of an OPDS feed (`opds.json`): each publication's acquisition links and
/// covers, with the sizes the links give. It comes from the built folder or the destination,
/// read within `BuiltMagazine.catalogLimit`; members publish does not need are not decoded.
struct OPDSLinks: Decodable {
    /// A Link Object: where it points, its relation, and the size it gives for what is there.
    struct Link: Decodable {
        var href: String
        var rel: String?
        var size: Int64?

        /// Whether it is a paid issue's acquisition (`buy`), served only with a signature.
        var isPaid: Bool { rel == OPDSLinks.buy }
    }

    struct Publication: Decodable {
        var links: [Link]
        var images: [Link]?
    }

    var publications: [Publication]?

    /// The feed's file, beside `issues.plist`.
    static let fileName = "opds.json"
    /// The acquisition relation of a paid issue's links (`OPDSFeed.buy`).
    static let buy = "http://opds-spec.org/acquisition/buy"

    /// Every publication's links, then its images, in the feed's order.
    var links: [Link] {
        (publications ?? []).flatMap { $0.links + ($0.images ?? []) }
    }

    /// The feed in `data`; nil when it is not one.
    static func decode(_ data: Data) -> OPDSLinks? {
        try? JSONDecoder().decode(OPDSLinks.self, from: data)
    }

    /// What is wrong with a feed `decode` refuses.
    static let unreadable = "it is not an OPDS feed newsstand can read (JSON with publications of links, each with an href)"
}
