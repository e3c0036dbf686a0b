/// Bounds on what an archive may unpack to, so that a hostile or broken bundle cannot fill
/// the disk or exhaust inodes.
public struct ZipExtractionLimits: Sendable, Equatable {
    /// The most entries (files and folders) an archive may hold.
    public var maxEntries: Int
    /// The most bytes all files together may unpack to.
    public var maxTotalSize: Int64
    /// The highest ratio of unpacked bytes to archive bytes; zip bombs reach 1000:1 and more,
    /// while images compress barely and plists about 10:1.
    public var maxCompressionRatio: Double
    /// The ratio is only judged once this many bytes have been unpacked, so that tiny archives
    /// of text are not rejected.
    public var ratioGraceSize: Int64

    /// Creates limits; the defaults suit magazine issues (images, plists, some HTML).
    public init(
        maxEntries: Int = 20_000,
        maxTotalSize: Int64 = 8 << 30,
        maxCompressionRatio: Double = 100,
        ratioGraceSize: Int64 = 1 << 20
    ) {
        self.maxEntries = maxEntries
        self.maxTotalSize = maxTotalSize
        self.maxCompressionRatio = maxCompressionRatio
        self.ratioGraceSize = ratioGraceSize
    }

    /// The default limits.
    public static let `default` = ZipExtractionLimits()
}
