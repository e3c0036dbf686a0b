import Foundation
import NewsstandReader

/// How `newsstand library` prints issues, problems and progress.
enum LibraryFormatting {
    static func line(_ issue: Issue, scale: LibraryScale) -> String {
        let size = issue.contentSize.map { ByteCount.format(Int64($0)) } ?? "-"
        let update = issue.hasUpdate ? "  (update available)" : ""
        // A retina library that fell back to the normal files (no @2x ones on the server) says so.
        var fallbacks: [String] = []
        if issue.installedScale.map({ $0 != scale }) == true { fallbacks.append("normal-scale content") }
        if issue.coverScale.map({ $0 != scale }) == true { fallbacks.append("normal-scale cover") }
        let fellBack = fallbacks.isEmpty ? "" : "  (\(fallbacks.joined(separator: ", ")))"
        return "\(issue.name)\t\(day(issue.date))\t\(issue.status.label)\t\(size)\(update)\(fellBack)"
    }

    static func json(_ issue: Issue) -> [String: Any] {
        var object: [String: Any] = [
            "name": issue.name, "title": issue.title, "date": ISO8601DateFormatter().string(from: issue.date),
            "status": issue.status.label, "hasUpdate": issue.hasUpdate, "inCatalog": issue.isInCatalog,
            "contentURL": issue.remoteContentURL.absoluteString,
        ]
        object["size"] = issue.contentSize
        object["installedScale"] = issue.installedScale?.rawValue
        object["coverScale"] = issue.coverScale?.rawValue
        object["cover"] = issue.coverFileURL?.path
        if issue.status == .available { object["path"] = issue.contentURL.path }
        if case .downloading(let progress) = issue.status { object["bytesReceived"] = progress.bytesReceived }
        return object
    }

    static func describe(_ problem: RefreshProblem) -> String {
        switch problem {
        case .badEntry(let name, let reason): "catalog entry \(name.map { "'\($0)'" } ?? "without a name") skipped: \(reason)"
        case .unsafeName(let name): "catalog entry '\(name)' skipped: unsafe issue name"
        case .badURL(let name, let url): "catalog entry '\(name)' skipped: bad URL '\(url)'"
        case .coverUnavailable(let name, let url, let reason): "cover of '\(name)' (\(url)) not fetched: \(reason)"
        case .coverTooLarge(let name, let url, let limit):
            "cover of '\(name)' (\(url)) not kept: larger than the limit of \(limit) bytes (--max-cover-size)"
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

    private static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
