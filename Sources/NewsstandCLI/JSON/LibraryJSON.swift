import Foundation
import NewsstandReader

/// What `newsstand library ... --format json` prints, one type per action: `refresh` a
/// `Refresh`; `list` an array of `Issue`; `download` and `resume` an array of
/// `Outcome<Issue>` (`download --background` an array of `Outcome<Queued>`); `update` an array of `Outcome<Update>`; `remove` a `Removed`; `cover` a
/// `Cover`. Keys are sorted; a member that does not apply is left out.
public enum LibraryJSON {
    /// What a refresh changed.
    public struct Refresh: Codable, Equatable, Sendable {
        /// The server answered 304: nothing else changed.
        public var notModified: Bool
        /// Issues new in the catalog.
        public var added: [String]
        /// Issues whose metadata changed.
        public var updated: [String]
        /// Downloaded issues whose content changed (an update is available).
        public var contentUpdates: [String]
        /// Issues no longer in the catalog.
        public var removed: [String]
        /// Catalog entries skipped and covers not kept, each in one line.
        public var problems: [String]

        init(_ result: RefreshResult) {
            notModified = result.notModified
            added = result.added
            updated = result.updated
            contentUpdates = result.contentUpdates
            removed = result.removed
            problems = result.problems.map { LibraryFormatting.describe($0) }
        }
    }

    /// One issue on the shelf.
    public struct Issue: Codable, Equatable, Sendable {
        /// The issue's permanent key.
        public var name: String
        /// Its title.
        public var title: String
        /// Its date, ISO 8601 in UTC (`2026-09-01T08:00:00Z`).
        public var date: String
        /// `none`, `downloading` or `available`.
        public var status: String
        /// The catalog's content differs from the downloaded one.
        public var hasUpdate: Bool
        /// The issue is in the last catalog read.
        public var inCatalog: Bool
        /// The bundle's URL.
        public var contentURL: String
        /// The bundle's size in bytes, when the catalog gives it.
        public var size: Int?
        /// What an update costs by ranges, measured at the refresh.
        public var updateBytes: Int64?
        /// `normal` or `retina`: the scale of the downloaded content.
        public var installedScale: String?
        /// The scale of the cached cover.
        public var coverScale: String?
        /// The cached cover's path.
        public var cover: String?
        /// The content's folder, when the issue is available.
        public var path: String?
        /// Bytes received so far, while it downloads.
        public var bytesReceived: Int64?
        /// The background transfer under way: `queued`, `transferring`, `received`,
        /// `installing` or `updating` (`IssuePhase`).
        public var background: String?

        init(_ issue: NewsstandReader.Issue, background transfer: BackgroundTransfer? = nil) {
            name = issue.name
            title = issue.title
            date = ISO8601DateFormatter().string(from: issue.date)
            status = issue.status.label
            hasUpdate = issue.hasUpdate
            inCatalog = issue.isInCatalog
            contentURL = issue.remoteContentURL.absoluteString
            size = issue.contentSize
            updateBytes = issue.updateBytes
            installedScale = issue.installedScale?.rawValue
            coverScale = issue.coverScale?.rawValue
            cover = issue.coverFileURL?.path
            if issue.status == .available { path = issue.contentURL.path }
            if case .downloading(let progress) = issue.status { bytesReceived = progress.bytesReceived }
            if let transfer {
                background = transfer.phase.rawValue
                bytesReceived = transfer.progress.bytesReceived
            }
        }
    }

    /// A download handed to the background engine (`download --background`).
    public struct Queued: Codable, Equatable, Sendable {
        /// The issue.
        public var name: String
        /// `queued`.
        public var status: String
    }

    /// How an issue was updated: `update` is `none` (up to date), `ranges` (with the four
    /// counts) or `full` (with the `reason` it was downloaded whole).
    public struct Update: Codable, Equatable, Sendable {
        /// The issue.
        public var name: String
        /// `none`, `ranges` or `full`.
        public var update: String
        /// `ranges`: bytes fetched.
        public var bytesFetched: Int64?
        /// `ranges`: requests made.
        public var requests: Int?
        /// `ranges`: files fetched.
        public var filesFetched: Int?
        /// `ranges`: files kept from the installed version.
        public var filesKept: Int?
        /// `full`: why the update could not go by ranges.
        public var reason: String?

        init(name: String, _ result: UpdateResult) {
            self.name = name
            switch result {
            case .upToDate:
                update = "none"
            case .ranges(let bytes, let requests, let fetched, let kept):
                update = "ranges"
                (bytesFetched, self.requests, filesFetched, filesKept) = (bytes, requests, fetched, kept)
            case .full(let reason):
                update = "full"
                self.reason = reason.description
            }
        }
    }

    /// An issue an action failed on. `status` (`none`) is there for a download.
    public struct Failure: Codable, Equatable, Sendable {
        /// The issue.
        public var name: String
        /// Its status after the failure (downloads only).
        public var status: String?
        /// Why it failed.
        public var error: String
    }

    /// What an action did to one issue: `Success`'s members, or a `Failure`'s (which alone has
    /// `error`).
    public enum Outcome<Success: Codable & Equatable & Sendable>: Codable, Equatable, Sendable {
        case success(Success)
        case failure(Failure)

        private enum Keys: String, CodingKey { case error }

        /// A `Failure` when the object has `error`, else a `Success`.
        public init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: Keys.self)
            self = keys.contains(.error) ? .failure(try Failure(from: decoder)) : .success(try Success(from: decoder))
        }

        /// The members of the one it holds.
        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .success(let success): try success.encode(to: encoder)
            case .failure(let failure): try failure.encode(to: encoder)
            }
        }
    }

    /// An issue removed (its status is then `none`).
    public struct Removed: Codable, Equatable, Sendable {
        /// The issue.
        public var name: String
        /// `none`.
        public var status: String
    }

    /// Where an issue's cover is.
    public struct Cover: Codable, Equatable, Sendable {
        /// The issue.
        public var name: String
        /// The cover file's path.
        public var cover: String
    }
}
