import NewsstandImport

/// What `import --format json` prints: `{"import": {...}}`. When the import failed, `written`
/// (false) and `error`; otherwise all but `error`.
public struct ImportJSON: Codable, Equatable, Sendable {
    /// The one member.
    public var `import`: Report

    /// The import's report.
    public struct Report: Codable, Equatable, Sendable {
        /// Whether the issue was written.
        public var written: Bool
        /// Why the import failed (nothing was written).
        public var error: String?
        /// The new issue's name.
        public var issue: String?
        /// Its folder.
        public var folder: String?
        /// Pages imported.
        public var pages: Int?
        /// Articles they were grouped into.
        public var articles: Int?
        /// Pages written as PNG.
        public var pngPages: Int?
        /// Pages written as JPEG (photographic pages).
        public var jpegPages: Int?
        /// Whether normal sizes were written beside the @2x masters (`DeriveNormalSize` false).
        public var normalSizesWritten: Bool?
        /// Bytes of the images written.
        public var imageBytes: Int64?
        /// The cover's file name.
        public var cover: String?
        /// The @2x pages' width in pixels.
        public var width: Int?
        /// Files of the source folder that were not pages, and why.
        public var skipped: [String]?
        /// What the libraries said about pages they rendered anyway, "page N: …".
        public var warnings: [String]?
        /// Leftovers of an earlier import that did not finish, removed.
        public var leftoversRemoved: [String]?
    }

    /// The import failed with `error`.
    static func failed(_ error: String) -> ImportJSON {
        ImportJSON(import: Report(written: false, error: error))
    }

    /// `summary` of the issue `name`, its pages `width` wide.
    init(_ summary: ImportSummary, issue name: String, width: Int) {
        self.import = Report(
            written: true, issue: name, folder: summary.issueFolder, pages: summary.pages, articles: summary.articles,
            pngPages: summary.pngPages, jpegPages: summary.jpegPages, normalSizesWritten: summary.wroteNormalSizes,
            imageBytes: summary.imageBytes, cover: summary.cover, width: width, skipped: summary.notes,
            warnings: summary.warnings,
            leftoversRemoved: summary.leftoversRemoved)
    }

    private init(import report: Report) { self.import = report }
}
