import NewsstandBuild

/// `build`'s member of its `--format json` document. When validation failed only `written`
/// (false) is there; when the build failed, `written`, `error` and `warnings`; otherwise all
/// but `error`.
public struct BuildJSON: Codable, Equatable, Sendable {
    /// Whether the build wrote its outputs.
    public var written: Bool
    /// Why the build failed.
    public var error: String?
    /// The output folder, as given.
    public var output: String?
    /// The issues built.
    public var built: [String]?
    /// The issues whose outputs were up to date.
    public var upToDate: [String]?
    /// The issue folders removed from the output (issues no longer in the magazine).
    public var removed: [String]?
    /// Bundles written.
    public var bundles: Int?
    /// Bytes written.
    public var bytes: Int64?
    /// Entries in `issues.plist`.
    public var catalogEntries: Int?
    /// Seconds the command took, to the millisecond.
    public var seconds: Double?
    /// The build's warnings.
    public var warnings: [String]?
    /// Images derived and optimised.
    public var images: Images?
    /// EPUBs written (`--feed epub`).
    public var epubs: EPUBs?
    /// The issues whose validation came from their build record.
    public var validationReused: [String]?
    /// Build records not used, and why.
    public var recordWarnings: [String]?

    /// The EPUBs a build wrote.
    public struct EPUBs: Codable, Equatable, Sendable {
        /// EPUBs written (issues built with `--feed epub`).
        public var written: Int
        /// Their pages that show only their base image (a class the EPUB cannot express), by class.
        public var pagesAsBaseImage: [String: Int]
    }

    /// The image work of a build, cached results counted apart.
    public struct Images: Codable, Equatable, Sendable {
        /// Normal sizes derived from @2x masters.
        public var derived: Int
        /// Normal sizes taken from the image cache.
        public var derivedFromCache: Int
        /// Images optimised (`--optimize`).
        public var optimized: Int
        /// Optimised images taken from the cache.
        public var optimizedFromCache: Int
        /// Bytes saved against the originals, cached results included.
        public var bytesSaved: Int64
    }
}

extension BuildJSON {
    /// Nothing was written: validation failed.
    static let validationFailed = BuildJSON(written: false)

    /// Nothing was written: the build failed with `error`, after these warnings.
    static func failed(_ error: any Error, warnings: [String]) -> BuildJSON {
        BuildJSON(written: false, error: "\(error)", warnings: warnings)
    }

    /// A build that wrote `report` into `output`.
    init(_ report: BuildReport, output: String, seconds: Double, validationReused: [String], recordWarnings: [String]) {
        let images = report.images
        self.init(
            written: true, output: output, built: report.built, upToDate: report.upToDate, removed: report.removed,
            bundles: report.bundlesWritten, bytes: report.bytesWritten, catalogEntries: report.catalogEntries,
            seconds: (seconds * 1000).rounded() / 1000, warnings: report.warnings,
            images: Images(
                derived: images.derived, derivedFromCache: images.derivedFromCache, optimized: images.optimized,
                optimizedFromCache: images.optimizedFromCache, bytesSaved: images.bytesSaved),
            epubs: EPUBs(written: report.epubsWritten, pagesAsBaseImage: report.epubPagesAsBaseImage),
            validationReused: validationReused, recordWarnings: recordWarnings)
    }
}
