import Foundation
import NewsstandFormat

/// The names and configs of an imported issue.
enum PageConfig {
    /// `pages.plist`: one article per range, one `SimplePage` per page with its `baseImage`.
    static func pages(_ baseImages: [String], articles: [ClosedRange<Int>]) -> PlistNode {
        let articleNodes = articles.map { range in
            node(
                .array(
                    range.map { index in
                        node(
                            .dictionary([
                                entry("class", node(.string("SimplePage"))),
                                entry("properties", node(.dictionary([entry("baseImage", node(.string(baseImages[index])))]))),
                            ]))
                    }))
        }
        return node(.array(articleNodes))
    }

    /// `issue.plist`: Name, Title, Date and Cover.
    static func issue(_ request: ImportRequest, cover: String) -> PlistNode {
        node(
            .dictionary([
                entry("Name", node(.string(request.issueName))),
                entry("Title", node(.string(request.title))),
                entry("Date", node(.date(request.date))),
                entry("Cover", node(.string(cover))),
            ]))
    }

    private static func node(_ value: PlistNode.Value) -> PlistNode { PlistNode(value, line: 0) }
    private static func entry(_ key: String, _ value: PlistNode) -> PlistNode.Entry {
        PlistNode.Entry(key: key, keyLine: 0, node: value)
    }
}

/// Page image names as the rest of a layout has them: `<article>-<page>`, articles from 1 and
/// pages within an article from 0 (`1-0`, `2-0`, `2-1`), as in the sample magazine.
struct PageNames: Sendable {
    private let stems: [String]

    init(articles: [ClosedRange<Int>]) {
        var stems: [String] = []
        for (article, range) in articles.enumerated() {
            for page in range { stems.append("\(article + 1)-\(page - range.lowerBound)") }
        }
        self.stems = stems
    }

    /// The stem of page `index` (from 0).
    func stem(of index: Int) -> String { stems[index] }
}
