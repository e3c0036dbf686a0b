import Foundation

/// What `newsstand import` is asked to do.
public struct ImportRequest: Sendable {
    /// A PDF file or a folder of page images (a path the user gave: links on the way are followed).
    public var source: URL
    /// The magazine folder (with `magazine.plist` and `issues/`).
    public var magazine: URL
    /// The new issue's name (a folder in `issues/` that must not exist).
    public var issueName: String
    /// The issue's Title.
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
    /// The most memory one page's renderer may map, in bytes (`--page-memory`): the import as a
    /// whole uses at most `jobs` times this, whatever the source holds.
    public var pageMemoryLimit: Int
    /// The seconds one page (and opening the source) may take (`--page-timeout`).
    public var pageTimeout: Int
    /// The `newsstand` executable that renders pages (see ``PageRenderer``).
    public var renderer: URL

    /// The default `@2x` width: the retina iPad's portrait width.
    public static let defaultWidth = 1536
    /// The widths `--width` takes: even (the normal size is exactly half), from 64 to 4096.
    public static let widthRange = 64...4096
    /// The most pages rendered at once (`--jobs`): each in a renderer of its own.
    public static let maximumJobs = 32
    /// `--page-memory` by default: 1 GiB, ten times what a page of text and photographs at 1536
    /// pixels needs (about 100 MB), and less than a page drawing a 20,000-pixel-square image
    /// (1.6 GB) asks for.
    public static let defaultPageMemoryLimit = 1 << 30
    /// `--page-memory`, in MiB: below 128 MiB not even a page of text renders.
    public static let pageMemoryRange = 128...65_536
    /// `--page-timeout` by default, in seconds: a page of a print PDF takes one or two.
    public static let defaultPageTimeout = 60
    /// `--page-timeout`, in seconds: up to a day.
    public static let pageTimeoutRange = 1...86_400

    /// The `newsstand` executable in the folder of the running one: the running one itself
    /// once installed; for a program that embeds the import (the tests), the one built beside it.
    public static var rendererBesideThisProgram: URL {
        let running = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        return running.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("newsstand")
    }

    public init(
        source: URL, magazine: URL, issueName: String, title: String, date: Date, width: Int = defaultWidth,
        articles: ArticleRanges? = nil, jobs: Int, builtInSchema: URL, pageMemoryLimit: Int = defaultPageMemoryLimit,
        pageTimeout: Int = defaultPageTimeout, renderer: URL = rendererBesideThisProgram
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
        self.pageMemoryLimit = pageMemoryLimit
        self.pageTimeout = pageTimeout
        self.renderer = renderer
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
