import Foundation

/// What `newsstand import` is asked to do.
public struct ImportRequest: Sendable {
    /// A PDF file or a folder of page images (a path the user gave: links on the way are followed).
    public var source: URL
    /// The magazine folder (with `magazine.plist` and `issues/`).
    public var magazine: URL
    /// The new issue's name (a folder in `issues/` that must not exist).
    public var issueName: String
    public var title: String
    /// The issue's date: midnight UTC of the day given.
    public var date: Date
    /// The width of the `@2x` page images, in pixels.
    public var width: Int
    /// How pages are grouped into articles; nil: one article per page.
    public var articles: ArticleRanges?
    /// Pages rendered at once.
    public var jobs: Int
    /// The built-in page-class schema (`templates/page-classes.plist`).
    public var builtInSchema: URL

    /// The default `@2x` width: the retina iPad's portrait width.
    public static let defaultWidth = 1536
    /// The widths `--width` takes: even (the normal size is exactly half), from 64 to 4096.
    public static let widthRange = 64...4096
    /// The most pages rendered at once (`--jobs`): each holds one page (up to 90 MB).
    public static let maximumJobs = 32

    public init(
        source: URL, magazine: URL, issueName: String, title: String, date: Date, width: Int = defaultWidth,
        articles: ArticleRanges? = nil, jobs: Int, builtInSchema: URL
    ) {
        self.source = source
        self.magazine = magazine
        self.issueName = issueName
        self.title = title
        self.date = date
        self.width = width
        self.articles = articles
        self.jobs = jobs
        self.builtInSchema = builtInSchema
    }

    /// Parses `YYYY-MM-DD` (a real day of the Gregorian calendar) as midnight UTC.
    public static func date(fromDay text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 1
        else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(year: year, month: month, day: day)
        // Calendar.date(from:) rolls 2026-02-30 over to March: refuse days that do not exist.
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return date
    }
}
