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
    /// How long opening a library waits while another process (or another `IssueLibrary` in
    /// this one) has the same folder open; 0 fails at once with `LibraryError.libraryInUse`.
    /// The wait blocks the calling thread.
    public var lockTimeout: TimeInterval = 0
    /// Whether downloads may use a cellular connection (honoured where the platform supports it).
    public var allowsCellularAccess: Bool = true
    /// The most issues kept downloaded; older ones are removed (never the one being read).
    /// `nil` keeps everything.
    public var maxDownloadedIssues: Int?
    /// Bounds on what a bundle may unpack to. A catalog entry without `ContentSize` may not
    /// send a bundle larger than these limits allow either.
    public var extractionLimits: ZipExtractionLimits = .default
    /// Free bytes at a path; replaceable so that a low-storage device can be simulated.
    public var availableCapacity: @Sendable (URL) -> Int64? = LibraryConfiguration.freeBytes(at:)

    /// Receives one line per notable step (requests, ranges, retries, unpacking): background
    /// transfers can only be understood from logs.
    public var log: (@Sendable (String) -> Void)?

    /// The HTTP stack every request runs on: libcurl on Linux, URLSession elsewhere
    /// (`platformTransport`), or an app's own.
    public var transport: any HTTPTransport = LibraryConfiguration.platformTransport
    /// Computes the digest a bundle is checked against (the catalog's `ContentSHA256`):
    /// SHA-256 by default.
    public var hasher: any ContentHasher = SHA256Hasher()
    /// Unpacks a verified bundle into an issue's content folder: `ZipExtractor` by default.
    public var unpacker: any BundleUnpacker = ZipBundleUnpacker()

    /// What a bundle's index (fetched to update an issue by ranges) may be: 16 MiB and 100,000
    /// entries by default; the catalog's `ContentIndexSize` caps it further.
    public var indexLimits = BundleIndexLimits()

    /// The default configuration.
    public init() {}

    /// The free bytes of the file system holding `url`.
    public static func freeBytes(at url: URL) -> Int64? {
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
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
