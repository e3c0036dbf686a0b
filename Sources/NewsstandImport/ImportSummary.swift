/// What an import wrote.
public struct ImportSummary: Sendable, Equatable {
    /// The new issue's folder.
    public var issueFolder: String
    public var pages: Int
    public var articles: Int
    /// Pages kept as PNG and as JPEG (see `PageEncoding.automatic`).
    public var pngPages: Int
    public var jpegPages: Int
    /// Whether normal-size images were written too (`DeriveNormalSize` off).
    public var wroteNormalSizes: Bool
    /// Bytes of every image written (pages, normal sizes, cover).
    public var imageBytes: Int64
    /// The cover's `@2x` file name.
    public var cover: String
    /// Files of the source folder skipped, one line each.
    public var notes: [String]
    /// What the libraries said about pages they rendered anyway (poppler's complaints about a
    /// PDF), one line each, "page N: …".
    public var warnings: [String]
    /// Workspaces of killed imports removed first.
    public var leftoversRemoved: [String]
}
