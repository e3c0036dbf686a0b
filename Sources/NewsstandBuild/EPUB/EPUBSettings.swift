import Foundation
import NewsstandCore

/// What an issue's EPUB takes from the magazine rather than from the issue: the publisher it
/// names, the BaseURL its identifier is made from and the language of issues that give none. Their digest (`key`) is recorded in the
/// issue's manifest, so a magazine.plist edit that changes them makes the EPUBs again.
struct EPUBSettings: Sendable, Equatable {
    /// `dc:publisher`: the magazine's Publisher, else its Title (as the feeds and books name it).
    var publisher: String
    /// Where the magazine is hosted: the identifiers' `TagURI`s are made from it.
    var baseURL: URL?

    /// magazine.plist's `Language`, when given: the language of an issue that gives none.
    var magazineLanguage: String?

    init(publisher: String, baseURL: URL?, magazineLanguage: String? = nil) {
        self.publisher = publisher
        self.baseURL = baseURL
        self.magazineLanguage = magazineLanguage
    }

    /// The settings of `magazine`'s EPUBs.
    init(magazine: Magazine) {
        self.init(publisher: magazine.author, baseURL: magazine.baseURL, magazineLanguage: magazine.language)
    }

    /// The EPUB's `dc:language`: the issue's `Language`, else the magazine's, else `en`
    /// (`Magazine.language(of:)`'s rule).
    func language(of metadata: IssueMetadata) -> String {
        LanguageTag.of(issue: metadata.language, magazine: magazineLanguage)
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
        let fields = [publisher, identifier(of: ""), LanguageTag.of(issue: nil, magazine: magazineLanguage)]
        return XXH3.hex(of: Data(fields.map { "\($0.utf8.count):\($0)\n" }.joined().utf8))
    }
}
