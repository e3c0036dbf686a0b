/// How `--articles` groups pages into articles: `1,2-5,6-` is page 1, pages 2 to 5, and page 6
/// to the last page. Pages are counted from 1. The ranges must cover every page exactly once,
/// in order: a gap, an overlap or a page past the end is an error, reported before any page is
/// rendered.
public struct ArticleRanges: Sendable, Equatable {
    /// One range as written: `first` to `last`, or to the end when `last` is nil.
    public struct Range: Sendable, Equatable {
        public var first: Int
        public var last: Int?

        public init(first: Int, last: Int?) {
            self.first = first
            self.last = last
        }

        var text: String { last.map { $0 == first ? "\(first)" : "\(first)-\($0)" } ?? "\(first)-" }
    }

    /// The ranges, in the order given.
    public let ranges: [Range]

    /// The longest `--articles` text read.
    public static let maximumLength = 65_536

    /// Parses the list's syntax and the order of its ranges (which needs no page count).
    public init(parsing text: String) throws(ArticleListError) {
        guard text.utf8.count <= Self.maximumLength else { throw .tooLong(limit: Self.maximumLength) }
        var ranges: [Range] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = String(part)
            let bounds = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            guard let first = Self.pageNumber(bounds[0]) else { throw .malformed(item: item) }
            var last: Int? = first
            if bounds.count == 2 {
                if bounds[1].isEmpty {
                    last = nil
                } else {
                    guard let end = Self.pageNumber(bounds[1]) else { throw .malformed(item: item) }
                    guard end >= first else { throw .backwards(item: item) }
                    last = end
                }
            }
            let range = Range(first: first, last: last)
            if let previous = ranges.last {
                guard let previousLast = previous.last else { throw .afterOpenEnd(item: item, openRange: previous.text) }
                if first <= previousLast { throw .overlap(item: item, previous: previous.text) }
                if first > previousLast + 1 { throw .gap(from: previousLast + 1, to: first - 1) }
            } else if first != 1 {
                throw .gap(from: 1, to: first - 1)
            }
            ranges.append(range)
        }
        self.ranges = ranges
    }

    /// The articles of a document of `pageCount` pages: each article's page indexes (from 0).
    public func articles(pageCount: Int) throws(ArticleListError) -> [ClosedRange<Int>] {
        var result: [ClosedRange<Int>] = []
        for range in ranges {
            let last = range.last ?? pageCount
            guard range.first <= pageCount, last <= pageCount else {
                throw .pastTheEnd(item: range.text, pageCount: pageCount)
            }
            result.append((range.first - 1)...(last - 1))
        }
        if let end = result.last?.upperBound, end + 1 < pageCount {
            throw .gap(from: end + 2, to: pageCount)
        }
        return result
    }

    /// One article per page.
    public static func onePerPage(pageCount: Int) -> [ClosedRange<Int>] { (0..<pageCount).map { $0...$0 } }

    /// A page number: 1 to 999,999, plain ASCII digits.
    private static func pageNumber(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 6, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), value >= 1
        else { return nil }
        return value
    }
}

/// What is wrong with an `--articles` list.
public enum ArticleListError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An item that is not `N`, `N-M` or `N-` (pages from 1).
    case malformed(item: String)
    /// `5-2`.
    case backwards(item: String)
    /// An item starting at or before the previous one's last page.
    case overlap(item: String, previous: String)
    /// Pages in no article.
    case gap(from: Int, to: Int)
    /// An item after one that runs to the end (`6-,8`).
    case afterOpenEnd(item: String, openRange: String)
    /// An item naming a page the document does not have.
    case pastTheEnd(item: String, pageCount: Int)
    /// The list is longer than any list of real pages.
    case tooLong(limit: Int)

    public var description: String {
        switch self {
        case .malformed(let item):
            return
                "--articles: '\(item)' is not a page range; write N, N-M or N- (pages counted from 1), separated by commas, as in 1,2-5,6-"
        case .backwards(let item): return "--articles: '\(item)' ends before it starts"
        case .overlap(let item, let previous):
            return "--articles: '\(item)' overlaps '\(previous)'; every page belongs to one article"
        case .gap(let from, let to):
            return from == to
                ? "--articles: page \(from) is in no article; the ranges must cover every page, in order"
                : "--articles: pages \(from) to \(to) are in no article; the ranges must cover every page, in order"
        case .afterOpenEnd(let item, let openRange):
            return "--articles: '\(item)' comes after '\(openRange)', which runs to the last page"
        case .pastTheEnd(let item, let pageCount):
            return "--articles: '\(item)' goes past the last page; the input has \(pageCount) page(s)"
        case .tooLong(let limit): return "--articles is longer than \(limit) bytes"
        }
    }
}
