/// How a page image is saved.
public enum PageEncoding: Sendable, Equatable {
    /// Lossless: text and flat colours stay crisp.
    case png
    /// JPEG at quality 90 without chroma subsampling (visually lossless for photographs).
    case jpeg
    /// Both are encoded; JPEG is kept when it takes at most ``PageEncoding/jpegShareLimit`` of
    /// the PNG's bytes, PNG otherwise (and always when the page has transparency).
    case automatic

    /// 0.5: JPEG must halve the page to be chosen. Measured on 1536-pixel pages
    /// (bench/imaging): a photograph's JPEG is 8–15% of its PNG, a page of text on white 60–200%
    /// (PNG wins, and JPEG would blur its edges), a layout mixing a photograph and text 20–35%.
    /// A page where JPEG saves less than half is mostly flat colour and text, where JPEG's
    /// ringing around edges is most visible and its saving least worth it.
    public static let jpegShareLimit = 0.5

    /// JPEG quality of page images.
    public static let jpegQuality = 90
}

/// A page image written by ``PDFDocument`` or ``PageImageScaler``.
public struct RenderedPage: Sendable, Equatable, Codable {
    public let format: ImageFormat
    public let width: Int
    public let height: Int
    /// Bytes written.
    public let byteCount: Int64
    /// With ``PageEncoding/automatic``: the size the other encoding would have had.
    public let alternativeByteCount: Int64?

    public init(format: ImageFormat, width: Int, height: Int, byteCount: Int64, alternativeByteCount: Int64?) {
        self.format = format
        self.width = width
        self.height = height
        self.byteCount = byteCount
        self.alternativeByteCount = alternativeByteCount
    }
}
