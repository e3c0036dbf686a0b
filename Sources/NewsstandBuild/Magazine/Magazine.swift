import Foundation
import NewsstandCore
import NewsstandFormat

/// A magazine's folder, opened: its settings, its page classes and the names of its issues.
/// Issues are read one at a time (`IssueValidator`), so memory does not grow with their number.
public struct Magazine: Sendable {
    /// The `BaseURL` `newsstand init` writes: a magazine still at it is not ready to publish
    /// (`validate` warns, NS-108; `publish` refuses a catalog built with it).
    public static let placeholderBaseURL = "https://example.com/magazine/"

    /// The magazine's folder.
    public var folder: URL
    /// `magazine.plist` Title, when valid.
    public var title: String?
    /// `magazine.plist` BaseURL, ending in `/`, when valid.
    public var baseURL: URL?
    /// `magazine.plist` Publisher, when given: the Atom feed's author (the Title otherwise)
    /// and the `publisher` of every Baker book.
    public var publisher: String?
    /// `magazine.plist` PreviewURL, ending in `/`, when given: where `newsstand preview`'s
    /// output is published, so the Atom feed links each issue's web page.
    public var previewURL: URL?
    /// `magazine.plist` Language, when given and well-formed: the language of every issue whose
    /// issue.plist gives none (`language(of:)`).
    public var language: String?
    /// `magazine.plist` DeriveNormalSize (default true): an image whose normal-size file is
    /// missing from `assets/` while its `@2x` master is there has its normal size derived by
    /// the build (halved with NewsstandImaging) instead of being an error.
    public var derivesNormalSize = true
    /// The page classes pages may use.
    public var schema: PageClassSchema
    /// The issue folder names in `issues/`, sorted.
    public var issueNames: [String]
    /// What every issue's validation depends on outside the issue (the tool's version, the
    /// page-class schemas' bytes), as a digest: a build record made under another key is not
    /// reused (`ValidationRecord.key`).
    public var recordKey: String

    /// The folder of an issue.
    public func issueFolder(_ name: String) -> URL {
        // `isDirectory` said: without it, Foundation `stat`s the path to find out (once per issue).
        folder.appendingPathComponent("issues", isDirectory: true).appendingPathComponent(name, isDirectory: true)
    }

    /// The language an issue is in: its own `Language`, else the magazine's, else `en`
    /// (`LanguageTag.of(issue:magazine:)`).
    public func language(of metadata: IssueMetadata) -> String {
        LanguageTag.of(issue: metadata.language, magazine: language)
    }

    /// Who the feeds name as the magazine's author: its Publisher, else its Title.
    public var author: String { publisher ?? title ?? "" }

    /// A path as diagnostics show it: relative to the magazine folder.
    public static func displayPath(issue: String, _ components: String...) -> String {
        (["issues", issue] + components).joined(separator: "/")
    }
}
