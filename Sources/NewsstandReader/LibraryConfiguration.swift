import Foundation
import NewsstandCore

/// How a library downloads, unpacks and keeps issues. The defaults suit an app.
public struct LibraryConfiguration: Sendable {
    /// Downloads running at once; the rest wait in the library's own queue, so that
    /// queued requests cannot time out before they send a byte.
    public var maxConcurrentDownloads: Int = 2
    /// The window of the rate rule that applies to every transfer (catalog, cover, bundle): over
    /// any window of this many seconds at least `minimumSpeed` bytes per second must arrive, or
    /// the transfer is cut; a bundle is then retried and resumed, a catalog or cover fails.
    /// A connection that sends nothing at all for this long fails the same way, and connecting
    /// may take this long.
    public var stallTimeout: TimeInterval = 30
    /// The lowest rate, in bytes per second averaged over `stallTimeout`, a transfer may keep
    /// (curl's low-speed limit); 0 leaves only the rule that something must arrive.
    public var minimumSpeed: Int64 = 1024
    /// The overall deadline of one catalog or cover request, from connecting to the last byte.
    /// Five minutes let a 60 MB catalog (100,000 issues) arrive uncompressed at 200 KB/s;
    /// the minimum rate, not this, is what cuts a dripping server early. Bundles have no
    /// deadline: they are resumed after a failure instead.
    public var requestTimeout: TimeInterval = 300
    /// The most bytes a catalog may have once decoded (a gzip-compressed answer counts at its
    /// unpacked size). 128 MiB admits catalogs of 100,000 issues (about 60 MB) with room to
    /// spare; a catalog is parsed as it arrives, so memory does not grow with this limit.
    public var maxCatalogBytes: Int64 = 128 << 20
    /// The most bytes a cover may have once decoded. Covers are streamed to a file, never held
    /// in memory; a larger one is not kept.
    public var maxCoverBytes: Int64 = 16 << 20
    /// How many of the newest issues' covers `refresh` fetches (new or changed ones); any other
    /// cover is fetched when the app asks for it with `IssueLibrary.cover(of:)`. A 10,000-issue
    /// catalog's first refresh then makes at most this many cover requests, not 10,000.
    public var coversFetchedOnRefresh: Int = 20
    /// Cover requests at once, from `refresh` and `cover(of:)` together; the rest wait.
    public var maxConcurrentCoverRequests: Int = 4
    /// Attempts per download for transient failures (connection lost, stall, 5xx); 404 and 403,
    /// an unusable URL, a body larger than the catalog states and a full disk are never retried.
    public var maxAttempts: Int = 4
    /// The first retry waits this long; each later one twice as long.
    public var retryDelay: TimeInterval = 1
    /// How long a reconcile waits for the events of background transfers its engine's report
    /// does not list (`TransferEngine.reportsFinishedTransfers` false) before it takes them for
    /// lost and starts them again; the wait ends as soon as they came, or as soon as the engine
    /// says it delivered every event of a relaunch (`TransferEventSink.deliveredAllEvents`).
    /// `IssueLibrary.eventGrace` (2 s) by default.
    public var eventGrace: TimeInterval = IssueLibrary.eventGrace
    /// The clock every wait of the library runs on (backoffs, deadlines, claims): the system's,
    /// unless a test drives its own.
    public var clock: LibraryClock = .system
    /// How long a write (and opening) waits while another writer (a process, or another
    /// `IssueLibrary` in this one) holds the folder's writer lock for its own transaction; after
    /// that it fails with `LibraryError.libraryInUse`. A transaction holds it for milliseconds.
    /// Waiting blocks a thread of the library's own (opening: the calling thread).
    public var lockTimeout: TimeInterval = 5
    /// The networks requests may use and whether they wait for one: every catalog, cover and
    /// index request, and each download unless `download(_:policy:progress:)` is given another.
    public var networkPolicy: NetworkPolicy = .interactive
    /// The most issues kept downloaded; older ones are removed (never the one being read).
    /// `nil` keeps everything.
    public var maxDownloadedIssues: Int?
    /// The most bytes the downloaded issues' content may take (their files' sizes); past it the
    /// oldest downloaded issues are removed (never the one being read, nor one just downloaded,
    /// which may therefore exceed it alone). `nil` sets no budget.
    public var maxStorageBytes: Int64?
    /// The data protection class of every folder and file the library writes, its SQLite files
    /// included (iOS, iPadOS, tvOS, watchOS, visionOS; accepted and ignored on macOS and Linux).
    /// `completeUntilFirstUserAuthentication` by default, so that a background wake on a locked
    /// device (a push, a background fetch) can still read and write the library.
    public var fileProtection: FileProtection = .completeUntilFirstUserAuthentication
    /// Whether downloaded content, partial downloads and covers are kept out of device backups
    /// (`isExcludedFromBackup` on their folders; they are downloaded again after a restore). The
    /// state, with the reading positions, is always backed up. No effect on Linux.
    public var excludesDownloadsFromBackup = true
    /// Bounds on what a bundle may unpack to. A catalog entry without `ContentSize` may not
    /// send a bundle larger than these limits allow either.
    public var extractionLimits: ZipExtractionLimits = .default
    /// Free bytes at a path, the way the platform means it for a usage (`freeBytes(at:for:)`):
    /// what the user asked for is checked against `.important`, what the app fetches on its own
    /// (a push, a background fetch) against `.opportunistic`; replaceable so that a low-storage
    /// device can be simulated.
    public var availableCapacity: @Sendable (URL, CapacityUsage) -> Int64? = LibraryConfiguration.freeBytes(at:for:)

    /// Where the library logs each notable step (requests, ranges, retries, unpacking), with a
    /// level: background transfers can only be understood from logs. The system log on Apple
    /// platforms (`os.Logger`), nothing on Linux; `.lines { print($0) }` for a command-line
    /// program. No line carries a URL's query or user information.
    public var log: LibraryLog = .system

    /// The HTTP stack every request runs on: URLSession by default, or an app's own (the
    /// `newsstand` program sets its libcurl transport on Linux).
    public var transport: any HTTPTransport = URLSessionTransport()
    /// Computes the digest a bundle is checked against (the catalog's `ContentSHA256`):
    /// SHA-256 by default.
    public var hasher: any ContentHasher = SHA256Hasher()
    /// Unpacks a verified bundle into an issue's content folder: `ZipExtractor` by default.
    public var unpacker: any BundleUnpacker = ZipBundleUnpacker()

    /// What a bundle's index (fetched to update an issue by ranges) may be: 16 MiB and 100,000
    /// entries by default; the catalog's `ContentIndexSize` caps it further.
    public var indexLimits = BundleIndexLimits()

    /// Where the library's analytics events go (`AnalyticsEvent`: a notification received or
    /// opened, an issue downloaded, opened, updated or removed); nil: nowhere. The library sends
    /// nothing anywhere itself and records no personal data.
    public var analytics: (any AnalyticsSink)?
    /// How long `handleRemoteNotification` and `performBackgroundFetch` may take before they
    /// answer: iOS gives a silent push about 30 seconds. Downloads are handed to the background
    /// engine, or left running in process, never waited for past it.
    public var newContentDeadline: TimeInterval = 25

    /// Time asked of the system for the install of what a background transfer brought, which runs
    /// after the wake's completion handler was called (`BackgroundActivity`): the platform's by
    /// default; when it expires the install stops at a safe point and the next launch finishes it.
    public var backgroundActivity: BackgroundActivity = .system

    /// Asked for a signed URL before a paid issue's bundle, index or range requests (and once
    /// more when the server refuses it); nil: paid issues fail with `LibraryError.notEntitled`.
    public var accessProvider: (any AccessProvider)?

    /// The defaults.
    public init() {}

    /// The free bytes of the file system holding `url`: on Apple platforms what the system can
    /// make available for `usage` (`volumeAvailableCapacityForImportantUsage` or
    /// `…ForOpportunisticUsage`, which count what it would purge for it), elsewhere the bytes an
    /// unprivileged process may write (`statvfs`).
    public static func freeBytes(at url: URL, for usage: CapacityUsage = .important) -> Int64? {
        FreeSpace.available(at: url, for: usage)
    }

    /// The limits of one catalog or cover request.
    var requestLimits: TransferLimits {
        TransferLimits(deadline: requestTimeout, stallTimeout: stallTimeout, minimumSpeed: minimumSpeed)
    }

    /// The limits of one bundle download attempt (no deadline: it is resumed instead).
    var downloadLimits: TransferLimits {
        TransferLimits(deadline: nil, stallTimeout: stallTimeout, minimumSpeed: minimumSpeed)
    }

    /// The most bytes a bundle may have when the catalog does not state its size: what the
    /// extraction limits could ever accept (every byte stored, plus generous zip headers).
    var maxUnstatedBundleBytes: Int64 {
        extractionLimits.maxTotalSize + Int64(extractionLimits.maxEntries) * 2048
    }
}

/// What free space is asked for (`LibraryConfiguration.availableCapacity`).
public enum CapacityUsage: Sendable, Equatable {
    /// For content the user asked for: the system purges what it can for it.
    case important
    /// For what the app fetches on its own (`TransferIntent.automatic`): the system gives it
    /// only what it can spare without purging.
    case opportunistic
}
