import Foundation
import NewsstandCore

/// A downloaded issue's content, read from its `contentURL`: the issue's metadata and its
/// articles of pages, each page decoded by the registry's type for its class.
public struct IssueContent: Sendable {
    /// `issue.plist` Title.
    public var title: String?
    /// `issue.plist` Date.
    public var date: Date?
    /// Articles (horizontal), each an array of pages (vertical).
    public var articles: [[PageContent]]

    /// Reads the content in `folder` for a scale.
    /// - Throws: `ContentError.unreadable` or `.malformed` for `pages.plist`; a page that cannot
    ///   be decoded does not fail the issue (see `PageContent.Kind.failed`).
    public init(contentsOf folder: URL, scale: LibraryScale, registry: PageRegistry = .standard) throws(ContentError) {
        let root = try Self.plist(folder.appendingPathComponent("pages.plist"))
        guard let articleList = root.array else {
            throw .malformed(file: "pages.plist", reason: "the root is not an array of articles")
        }
        var articles: [[PageContent]] = []
        for (a, article) in articleList.enumerated() {
            guard let pages = article.array, !pages.isEmpty else {
                throw .malformed(file: "pages.plist", reason: "article \(a + 1) is not a non-empty array of pages")
            }
            var contents: [PageContent] = []
            for (p, page) in pages.enumerated() {
                guard let dictionary = page.dictionary, let className = dictionary["class"]?.string,
                    let properties = (dictionary["properties"] ?? .dictionary([:])).dictionary
                else {
                    throw .malformed(file: "pages.plist", reason: "page \(p + 1) of article \(a + 1) lacks a class or properties")
                }
                contents.append(
                    Self.decode(className, PageProperties(values: properties, folder: folder, isRetina: scale.isRetina), registry)
                )
            }
            articles.append(contents)
        }
        self.articles = articles
        let metadata = (try? Self.plist(folder.appendingPathComponent("issue.plist")))?.dictionary
        title = metadata?["Title"]?.string
        date = metadata?["Date"]?.date
    }

    /// Reads the content in `folder` on a thread of its own: never on the caller's actor or the
    /// cooperative pool (the registry's page types decode there too).
    static func read(_ folder: URL, scale: LibraryScale, registry: PageRegistry) async throws(ContentError) -> IssueContent {
        try await BlockingWork.run {
            Result { () throws(ContentError) in try IssueContent(contentsOf: folder, scale: scale, registry: registry) }
        }.get()
    }

    private static func decode(_ className: String, _ properties: PageProperties, _ registry: PageRegistry) -> PageContent {
        let kind: PageContent.Kind
        if let type = registry.type(for: className) {
            do { kind = .decoded(try type.init(properties: properties)) } catch { kind = .failed(error) }
        } else {
            kind = .generic(GenericPage(className: className, properties: properties))
        }
        return PageContent(className: className, properties: properties, kind: kind)
    }

    private static func plist(_ url: URL) throws(ContentError) -> PlistValue {
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
        } catch {
            throw .unreadable(file: url.lastPathComponent, reason: error.localizedDescription)
        }
        guard let value = PlistValue(foundationObject: object) else {
            throw .malformed(file: url.lastPathComponent, reason: "it holds a value a property list cannot")
        }
        return value
    }

    /// The index of the last article.
    public var lastArticleIndex: Int { articles.count - 1 }

    /// The index of the last page of an article.
    public func lastPageIndex(in article: Int) -> Int { articles[article].count - 1 }
}
