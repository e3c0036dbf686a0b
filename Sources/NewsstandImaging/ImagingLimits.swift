/// Caps on what one operation may cost, whatever a file claims. Images are streamed (libvips
/// works strip by strip), so most memory use does not grow with the image; these bound the
/// rest: the work a huge image asks for, a page rendered whole, libjpeg's coefficient arrays.
public struct ImagingLimits: Sendable, Equatable, Codable {
    /// Pixels (width × height) an input image may have: 50 million by default (an 8,660 ×
    /// 5,773 photograph; a retina page is about 3 to 6 million).
    public var maximumInputPixels: Int
    /// Pixels a rendered or scaled page may have: 16,777,216 by default (1536 × 10,922 at the
    /// default width). A page is held whole in memory (4 bytes a pixel) only when both
    /// encodings are tried, so this bounds that: 64 MiB.
    public var maximumPagePixels: Int
    /// Pages a PDF may have to be opened: 2,000 by default (a thick print issue has a few
    /// hundred). An importer renders every page; a file claiming a million would otherwise
    /// keep it busy for days and fill the disk.
    public var maximumPDFPages: Int
    /// Memory libjpeg may use to hold a JPEG's coefficients while it is optimised: 256 MiB by
    /// default (enough for a 40-megapixel 4:2:0 photograph).
    public var maximumJPEGMemory: Int

    /// The defaults above.
    public init(
        maximumInputPixels: Int = 50_000_000, maximumPagePixels: Int = 16_777_216, maximumPDFPages: Int = 2_000,
        maximumJPEGMemory: Int = 256 << 20
    ) {
        self.maximumInputPixels = maximumInputPixels
        self.maximumPagePixels = maximumPagePixels
        self.maximumPDFPages = maximumPDFPages
        self.maximumJPEGMemory = maximumJPEGMemory
    }
}
