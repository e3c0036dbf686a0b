import Foundation
import NewsstandArchive

/// How a library downloads, unpacks and keeps issues. The defaults suit an app.
public struct LibraryConfiguration: Sendable {
    /// Downloads running at once; the rest wait in the library's own queue, so that
    /// queued requests cannot time out before they send a byte.
    public var maxConcurrentDownloads: Int = 2
    /// A download that receives nothing for this long is cut and retried.
    public var stallTimeout: TimeInterval = 30
    /// Attempts per download for transient failures (connection lost, stall, 5xx); 404 and 403
    /// are never retried.
    public var maxAttempts: Int = 4
    /// The first retry waits this long; each later one twice as long.
    public var retryDelay: TimeInterval = 1
    /// Whether downloads may use a cellular connection (honoured where the platform supports it).
    public var allowsCellularAccess: Bool = true
    /// The most issues kept downloaded; older ones are removed (never the one being read).
    /// `nil` keeps everything.
    public var maxDownloadedIssues: Int?
    /// Bounds on what a bundle may unpack to.
    public var extractionLimits: ZipExtractionLimits = .default
    /// Free bytes at a path; replaceable so that a low-storage device can be simulated.
    public var availableCapacity: @Sendable (URL) -> Int64? = LibraryConfiguration.freeBytes(at:)

    /// Receives one line per notable step (requests, ranges, retries, unpacking): background
    /// transfers can only be understood from logs.
    public var log: (@Sendable (String) -> Void)?

    /// The default configuration.
    public init() {}

    /// The free bytes of the file system holding `url`.
    public static func freeBytes(at url: URL) -> Int64? {
        let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.path)
        return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
    }
}
