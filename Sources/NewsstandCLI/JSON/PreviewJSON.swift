/// `preview`'s member of its `--format json` document. When validation failed only `written`
/// (false) is there; when writing failed, `written` and `error`; otherwise all but `error`.
public struct PreviewJSON: Codable, Equatable, Sendable {
    /// Whether the preview was written.
    public var written: Bool
    /// Why writing failed.
    public var error: String?
    /// The output folder, as given.
    public var output: String?
    /// The path of the shelf page, `<output>/index.html`.
    public var index: String?
    /// The issues previewed.
    public var issues: [String]?
    /// Pages rendered.
    public var pages: Int?
    /// Images copied beside the pages.
    public var imagesCopied: Int?
    /// Bytes of those images.
    public var bytesCopied: Int64?
}
