import Foundation
import NewsstandCore

/// What an issue's EPUB takes from the magazine rather than from the issue: the publisher it
/// names and the BaseURL its identifier is made from. Their digest (`key`) is recorded in the
/// issue's manifest, so a magazine.plist edit that changes them makes the EPUBs again.
struct EPUBSettings: Sendable, Equatable {
    /// `dc:publisher`: the magazine's Publisher, else its Title (as the feeds and books name it).
    var publisher: String
    /// Where the magazine is hosted: the identifiers' `TagURI`s are made from it.
    var baseURL: URL?

    /// The language of every EPUB: `und` (undetermined, BCP 47). magazine.plist does not say
    /// which language a magazine is in, and EPUB requires one; its pages are images.
    static let language = "und"

    init(publisher: String, baseURL: URL?) {
        self.publisher = publisher
        self.baseURL = baseURL
    }

    /// The settings of `magazine`'s EPUBs.
    init(magazine: Magazine) {
        self.init(publisher: magazine.author, baseURL: magazine.baseURL)
    }

    /// The issue's `dc:identifier`: its `TagURI`, the identifier the OPDS feed and the Atom
    /// feed give it too (a magazine with no BaseURL, which cannot be published, gets one on
    /// `localhost`).
    func identifier(of issue: String) -> String {
        guard let baseURL else { return "tag:localhost,\(TagURI.date):/\(issue)" }
        return TagURI.issue(issue, baseURL: baseURL)
    }

    /// The digest of everything here, with its lengths: two settings that make different
    /// EPUBs never share a key.
    var key: String {
        let fields = [publisher, identifier(of: ""), Self.language]
        return XXH3.hex(of: Data(fields.map { "\($0.utf8.count):\($0)\n" }.joined().utf8))
    }
}
