import Foundation
import NewsstandCore

/// What an app's Background Assets extension (iOS 16.1+, today's heir of Newsstand Kit's
/// launch downloads) should schedule when the system asks it (`downloads(for:manifestURL:
/// extensionInfo:)`): from the catalog it was handed as the manifest (the app's `issues.plist`),
/// the newest issue at the device's scale as *essential* (the system fetches it before the app
/// first opens), and the next `nonEssentialCount` issues as non-essential, within the download
/// allowances the system states. Pure: `BackgroundAssetsDownloads` (Apple platforms only) turns
/// it into `BAURLDownload`s, and the app hands each finished file to `IssueLibrary.adopt(_:for:)`.
///
/// An issue is skipped, with the reason, when it is already installed, its bundle URL is not
/// `https` (Background Assets fetches nothing else), the catalog gives no size for it at this
/// scale (the system needs the exact size, and fails a download whose size differs), it is
/// listed twice, or it does not fit what is left of its allowance.
///
/// **Experimental.** The plan is pure and tested on Linux, but the rest of a Background Assets
/// integration is not there: no `BADownloaderExtension` code (the extension that asks for the
/// plan) exists in the samples, and the library has no synchronous way to take the system's file
/// before the callback that reports it returns (after which the system deletes it);
/// `IssueLibrary.adopt(_:for:)` is async. Until both are there, an app must move the file itself,
/// synchronously, inside the callback, and then adopt the moved file.
public struct BackgroundAssetsPlan: Sendable, Equatable {
    /// One bundle to schedule.
    public struct Asset: Sendable, Equatable {
        /// The download's identifier: `newsstand.<name>.<scale>` (`issueName(ofIdentifier:)` reads it back).
        public var identifier: String
        /// The issue.
        public var name: String
        /// The bundle at the plan's scale.
        public var url: URL
        /// Its exact size in bytes.
        public var size: Int64
        /// Whether the system fetches it before the app's first launch.
        public var isEssential: Bool
    }

    /// Why an issue of the catalog was not scheduled.
    public enum Skip: Error, Sendable, Equatable {
        /// Already on the device.
        case installed
        /// The bundle URL is not https.
        case notHTTPS
        /// The catalog gives no size for the bundle at this scale.
        case sizeUnknown
        /// A second entry with a name already planned.
        case listedTwice
        /// Larger than what is left of its allowance.
        case overAllowance(size: Int64, remaining: Int64)
        /// Older than the issues the plan takes.
        case beyondCount
    }

    /// An issue left out, and why.
    public struct Skipped: Sendable, Equatable {
        /// The issue.
        public var name: String
        /// Why.
        public var reason: Skip

        /// `name` left out for `reason`.
        public init(name: String, reason: Skip) {
            self.name = name
            self.reason = reason
        }
    }

    /// The essential download (none when the newest issue is skipped).
    public var essential: [Asset] = []
    /// The non-essential downloads, newest first.
    public var nonEssential: [Asset] = []
    /// What was left out, by issue name, newest first (for the extension's log).
    public var skipped: [Skipped] = []

    /// The plan for `entries` (the catalog as `Catalog.decode` gives it).
    /// - Parameters:
    ///   - entries: the catalog's entries.
    ///   - catalogURL: where the catalog lives, to resolve relative bundle URLs.
    ///   - scale: the library's scale: which bundle of each issue is planned.
    ///   - installed: issues already on the device (a `LibraryReader`'s shelf tells).
    ///   - nonEssentialCount: how many issues after the newest to plan as non-essential.
    ///   - essentialAllowance: `restrictedEssentialDownloadSizeRemaining` (nil: no limit).
    ///   - allowance: `restrictedDownloadSizeRemaining` (nil: no limit), for the non-essential ones.
    public static func make(
        entries: [CatalogEntry], catalogURL: URL, scale: LibraryScale, installed: Set<String>, nonEssentialCount: Int,
        essentialAllowance: Int64?, allowance: Int64?
    ) -> BackgroundAssetsPlan {
        var plan = BackgroundAssetsPlan()
        var seen: Set<String> = []
        var left = allowance
        for entry in IssueOrder.sorted(entries, by: { ($0.date, $0.name) }) {
            let isNewest = seen.isEmpty
            guard seen.insert(entry.name).inserted else {
                plan.skipped.append(Skipped(name: entry.name, reason: .listedTwice))
                continue
            }
            guard isNewest || plan.nonEssential.count < max(0, nonEssentialCount) else {
                plan.skipped.append(Skipped(name: entry.name, reason: .beyondCount))
                continue
            }
            switch asset(for: entry, catalogURL: catalogURL, scale: scale, installed: installed, isEssential: isNewest) {
            case .failure(let reason):
                plan.skipped.append(Skipped(name: entry.name, reason: reason))
            case .success(let asset):
                // Only the newest is essential: its allowance is never drawn on again.
                let remaining = isNewest ? essentialAllowance : left
                if let remaining, asset.size > remaining {
                    plan.skipped.append(Skipped(name: entry.name, reason: .overAllowance(size: asset.size, remaining: remaining)))
                } else if isNewest {
                    plan.essential.append(asset)
                } else {
                    left = remaining.map { $0 - asset.size }
                    plan.nonEssential.append(asset)
                }
            }
        }
        return plan
    }

    private static func asset(
        for entry: CatalogEntry, catalogURL: URL, scale: LibraryScale, installed: Set<String>, isEssential: Bool
    ) -> Result<Asset, Skip> {
        if installed.contains(entry.name) { return .failure(.installed) }
        let retina = scale.isRetina
        guard let url = CatalogURL.resolve(entry.contentURL(retina: retina), against: catalogURL),
            url.scheme?.lowercased() == "https", url.host?.isEmpty == false
        else { return .failure(.notHTTPS) }
        guard let size = entry.contentSize(retina: retina), size > 0 else { return .failure(.sizeUnknown) }
        return .success(
            Asset(
                identifier: identifier(of: entry.name, scale: scale), name: entry.name, url: url, size: Int64(size),
                isEssential: isEssential))
    }

    /// The identifier of an issue's download at `scale`.
    public static func identifier(of name: String, scale: LibraryScale) -> String { "newsstand.\(name).\(scale.rawValue)" }

    /// The issue an identifier made by this plan names, or nil for any other identifier.
    public static func issueName(ofIdentifier identifier: String) -> (name: String, scale: LibraryScale)? {
        guard identifier.hasPrefix("newsstand.") else { return nil }
        let rest = identifier.dropFirst("newsstand.".count)
        guard let dot = rest.lastIndex(of: "."), let scale = LibraryScale(rawValue: String(rest[rest.index(after: dot)...]))
        else {
            return nil
        }
        let name = String(rest[..<dot])
        guard IssueName.isSafe(name) else { return nil }
        return (name, scale)
    }
}
