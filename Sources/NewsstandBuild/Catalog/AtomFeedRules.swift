import Foundation
import NewsstandCore
import NewsstandFormat

/// Apple's rules for a Newsstand feed that `validate` and `build` check when `--feed atom` is
/// asked: a Summary of 10 to 2,000 bytes of UTF-8 (NS-601), and a `SOURCE` cover (the `@2x`
/// cover) that is a PNG with an aspect ratio between 1:2 and 2:1 and a long side of at least
/// 1,024 pixels (NS-602). Warnings; `--strict` makes them errors.
public enum AtomFeedRules {
    /// The shortest and longest summary, in bytes of UTF-8.
    public static let summaryBytes = 10...2000
    /// The shortest long side of the `SOURCE` cover, in pixels.
    public static let minimumCoverSide = 1024

    /// The problem with a summary (nil when there is none: the feed shows the Title), or nil.
    static func summaryProblem(_ summary: String?, issue: String) -> String? {
        guard let summary else {
            return
                "issue '\(issue)' has no Summary; the Newsstand feed needs one of \(range) bytes (the Atom feed shows the Title instead)"
        }
        let bytes = summary.utf8.count
        guard !summaryBytes.contains(bytes) else { return nil }
        return "issue '\(issue)' Summary is \(bytes) bytes of UTF-8; the Newsstand feed needs \(range)"
    }

    /// The problem with the `SOURCE` cover, or nil.
    static func coverProblem(_ probe: ImageSize.Probe?, file: String, issue: String) -> String? {
        let size = try? probe?.size.get()
        let isPNG = probe?.signature == .png
        let rule =
            "the Newsstand feed's cover must be a PNG with an aspect ratio between 1:2 and 2:1 and a long side of at least \(minimumCoverSide) px"
        guard let size, isPNG else {
            return "issue '\(issue)' cover '\(file)' is \(size.map { "\($0), not PNG" } ?? "unreadable"); \(rule)"
        }
        let long = max(size.width, size.height)
        let short = min(size.width, size.height)
        if long < minimumCoverSide || short * 2 < long {
            return "issue '\(issue)' cover '\(file)' is \(size); \(rule)"
        }
        return nil
    }

    private static let range = "10 to 2,000"
}

extension AtomFeedRules {
    /// Checks an issue being validated: its Summary where issue.plist gives it (or the dict's
    /// line when it is missing) and its `@2x` cover, opened in `assets` without following links
    /// (a cover that is missing or refused is already reported by the asset checks).
    static func check(
        issue: String, metadata: IssueMetadata, summaryLine: Int?, coverLine: Int?, assets: OpenFolder?,
        into problems: inout DiagnosticList
    ) {
        if let message = summaryProblem(metadata.summary, issue: issue) {
            problems.add(.feedSummary, message, line: summaryLine)
        }
        let retina = RetinaName.of(metadata.cover)
        guard let assets, let file = try? assets.file(retina) else { return }
        if let message = coverProblem(ImageSize.probe(file), file: retina, issue: issue) {
            problems.add(.feedCover, message, line: coverLine)
        }
    }
}
