/// A place in an issue: an article and a page within it. Persisted per issue by the library so a
/// reader reopens where they left off.
public struct ReadingPosition: Sendable, Codable, Equatable, Hashable {
    /// The article, from 0.
    public var article: Int
    /// The page within the article, from 0.
    public var page: Int

    /// A position at `page` of `article`.
    public init(article: Int, page: Int) {
        self.article = article
        self.page = page
    }

    /// The first page of the first article.
    public static let start = ReadingPosition(article: 0, page: 0)
}

/// Moves through an issue the way a reader swipes (the original design's `DataManager`):
/// left and right between articles (landing on an article's first page), up and down between
/// the pages of one article. Moves past an edge do nothing and return false.
public struct IssueCursor: Sendable {
    /// The issue the cursor moves through.
    public let content: IssueContent
    /// Where it is: always a page the issue has.
    public private(set) var position: ReadingPosition

    /// A cursor at `position`, clamped into the issue (a stored position may outlive a
    /// shorter updated issue).
    public init(content: IssueContent, position: ReadingPosition = .start) {
        self.content = content
        let article = min(max(0, position.article), max(0, content.lastArticleIndex))
        let page = content.articles.isEmpty ? 0 : min(max(0, position.page), content.lastPageIndex(in: article))
        self.position = ReadingPosition(article: article, page: page)
    }

    /// The page at the cursor.
    public var current: PageContent { content.articles[position.article][position.page] }
    /// The first page of the next article (what a swipe left shows), if any.
    public var next: PageContent? { page(at: nextArticle) }
    /// The first page of the previous article (what a swipe right shows), if any.
    public var previous: PageContent? { page(at: previousArticle) }
    /// The page below in this article (what a swipe up shows), if any.
    public var lower: PageContent? { page(at: lowerPage) }
    /// The page above in this article (what a swipe down shows), if any.
    public var upper: PageContent? { page(at: upperPage) }

    /// The index of the last article.
    public var lastArticleIndex: Int { content.lastArticleIndex }
    /// The index of the last page of `article`.
    public func lastPageIndex(in article: Int) -> Int { content.lastPageIndex(in: article) }

    /// Moves to the next article's first page.
    @discardableResult public mutating func moveToNextArticle() -> Bool { move(to: nextArticle) }
    /// Moves to the previous article's first page.
    @discardableResult public mutating func moveToPreviousArticle() -> Bool { move(to: previousArticle) }
    /// Moves down one page in the article.
    @discardableResult public mutating func moveToLowerPage() -> Bool { move(to: lowerPage) }
    /// Moves up one page in the article.
    @discardableResult public mutating func moveToUpperPage() -> Bool { move(to: upperPage) }

    private var nextArticle: ReadingPosition? {
        position.article < lastArticleIndex ? ReadingPosition(article: position.article + 1, page: 0) : nil
    }
    private var previousArticle: ReadingPosition? {
        position.article > 0 ? ReadingPosition(article: position.article - 1, page: 0) : nil
    }
    private var lowerPage: ReadingPosition? {
        position.page < lastPageIndex(in: position.article)
            ? ReadingPosition(article: position.article, page: position.page + 1) : nil
    }
    private var upperPage: ReadingPosition? {
        position.page > 0 ? ReadingPosition(article: position.article, page: position.page - 1) : nil
    }

    private func page(at position: ReadingPosition?) -> PageContent? {
        position.map { content.articles[$0.article][$0.page] }
    }

    private mutating func move(to target: ReadingPosition?) -> Bool {
        guard let target else { return false }
        position = target
        return true
    }
}
