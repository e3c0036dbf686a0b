import Foundation
import NewsstandCore
import NewsstandReader

/// How `newsstand library` prints issues, problems and progress.
enum LibraryFormatting {
    static func line(_ issue: Issue, scale: LibraryScale, background: BackgroundTransfer? = nil) -> String {
        let size = issue.contentSize.map { ByteCount.format(Int64($0)) } ?? "-"
        let update = issue.hasUpdate ? "  (\(updateCost(issue)))" : ""
        // A retina library that fell back to the normal files (no @2x ones on the server) says so.
        var fallbacks: [String] = []
        if issue.installedScale.map({ $0 != scale }) == true { fallbacks.append("normal-scale content") }
        if issue.coverScale.map({ $0 != scale }) == true { fallbacks.append("normal-scale cover") }
        let fellBack = fallbacks.isEmpty ? "" : "  (\(fallbacks.joined(separator: ", ")))"
        var transfer = ""
        if let background {
            let expected = background.progress.bytesExpected.map { " of \(ByteCount.format($0))" } ?? ""
            transfer =
                "  (background: \(background.phase.rawValue), \(ByteCount.format(background.progress.bytesReceived))\(expected))"
        }
        return "\(issue.name)\t\(day(issue.date))\t\(issue.status.label)\t\(size)\(update)\(fellBack)\(transfer)"
    }

    /// "update available: 65.6 KB by ranges, 812.3 KB whole" (or "…: 812.3 KB whole download"
    /// when it cannot go by ranges, or the size is unknown).
    static func updateCost(_ issue: Issue) -> String {
        let whole = issue.contentSize.map { ByteCount.format(Int64($0)) }
        switch (issue.updateBytes, whole) {
        case (let ranges?, let whole?): return "update available: \(ByteCount.format(ranges)) by ranges, \(whole) whole"
        case (let ranges?, nil): return "update available: \(ByteCount.format(ranges)) by ranges"
        case (nil, let whole?): return "update available: \(whole) whole download"
        case (nil, nil): return "update available"
        }
    }

    /// A library error as `library` prints it: a paid issue refused for want of an access
    /// provider names the option that gives one.
    static func describe(_ error: LibraryError, hasAccessProvider: Bool) -> String {
        guard case .notEntitled = error, !hasAccessProvider else { return error.description }
        return error.description
            + "; a paid issue is fetched with a signed link: give the program that gets one with --access-command CMD ('newsstand library --help' says what it is run with)"
    }

    /// An update's outcome, as `update` prints it.
    static func describe(_ result: UpdateResult) -> String {
        switch result {
        case .upToDate: "up to date"
        case .ranges(let bytes, let requests, let fetched, let kept):
            "updated by ranges: \(bytes) bytes in \(requests) request\(requests == 1 ? "" : "s") (\(fetched) file\(fetched == 1 ? "" : "s") fetched, \(kept) kept)"
        case .full(let reason): "downloaded whole: \(reason)"
        }
    }

    /// A refresh problem as one line; the catalog's names, URLs and the reasons (which may repeat
    /// a server's words) are quoted or escaped (`PrintableText`): a catalog is outside text.
    static func describe(_ problem: RefreshProblem) -> String {
        func q(_ text: String) -> String { PrintableText.quoted(text) }
        func e(_ text: String) -> String { PrintableText.escaped(text) }
        return switch problem {
        case .badEntry(let name, let reason): "catalog entry \(name.map(q) ?? "without a name") skipped: \(e(reason))"
        case .unsafeName(let name): "catalog entry \(q(name)) skipped: unsafe issue name"
        case .badURL(let name, let url): "catalog entry \(q(name)) skipped: bad URL \(q(url))"
        case .coverUnavailable(let name, let url, let reason): "cover of \(q(name)) (\(e(url))) not fetched: \(e(reason))"
        case .coverTooLarge(let name, let url, let limit):
            "cover of \(q(name)) (\(e(url))) not kept: larger than the limit of \(limit) bytes (\(LibraryCommand.Options.name(\.configuration.maxCoverBytes)))"
        }
    }

    static func progressBar(name: String, _ progress: DownloadProgress) -> String {
        let width = 30
        guard let fraction = progress.fractionCompleted, let expected = progress.bytesExpected else {
            return "\(name) \(ByteCount.format(progress.bytesReceived))"
        }
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        return
            "\(name) [\(bar)] \(Int(fraction * 100))% \(ByteCount.format(progress.bytesReceived))/\(ByteCount.format(expected))"
    }

    /// `yyyy-MM-dd` in UTC. Computed (days to a civil date), not with a DateFormatter: making
    /// one per line was most of `list` on a shelf of 10,000 issues.
    static func day(_ date: Date) -> String {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(abs(value))
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }
}
