import CVips
import Foundation

/// A PDF whose pages are rendered one at a time with libvips (poppler).
///
/// Pages may be rendered from several threads at once: each render reads the file at offsets of
/// its own and holds one page only, so memory grows with the number of pages rendered at the same
/// time, never with the document. Blocking: call it from threads of your own.
public final class PDFDocument: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init, and the descriptor is only
    // read with pread.

    /// The path or name, for messages.
    public let name: String
    /// The number of pages.
    public let pageCount: Int
    public let limits: ImagingLimits
    private let input: OpenedInput

    /// Opens a PDF and counts its pages. An encrypted PDF that needs a password to be opened is
    /// ``ImagingError/encryptedPDF(path:)`` (one with only an owner password, restricting editing
    /// or printing, opens); one poppler cannot parse is ``ImagingError/damagedPDF(path:reason:)``;
    /// one with more pages than the limit is ``ImagingError/tooManyPages(path:pageCount:limit:)``.
    public init(_ input: ImageInput, limits: ImagingLimits = ImagingLimits()) throws(ImagingError) {
        try VipsRuntime.start()
        self.input = try OpenedInput(input)
        self.name = input.name
        self.limits = limits
        let first = try Self.load(self.input, page: 0, scale: 1)
        guard let count = first.int("n-pages"), count > 0 else {
            throw .damagedPDF(path: name, reason: "it has no pages")
        }
        guard count <= limits.maximumPDFPages else {
            throw .tooManyPages(path: name, pageCount: count, limit: limits.maximumPDFPages)
        }
        pageCount = count
    }

    /// Renders page `index` (from 0) `width` pixels wide on white, with a height that keeps the
    /// page's proportions made even (a row repeated at the bottom when it would be odd), and
    /// writes it to `output`. The default width is 1536, the retina iPad's portrait width.
    public func renderPage(
        _ index: Int, width: Int = 1536, encoding: PageEncoding = .automatic, to output: ImageOutput
    ) throws(ImagingError) -> RenderedPage {
        guard width > 0 else { throw .invalidArgument("a page width must be positive, not \(width)") }
        guard index >= 0, index < pageCount else { throw .pageOutOfRange(path: name, page: index, pageCount: pageCount) }
        return try withExtendedLifetime(input) { () throws(ImagingError) -> RenderedPage in
            let page = try renderedImage(index, width: width)
            let opaque = try step("flattening page \(index + 1) on white", input) { cvips_flatten_white(page.pointer, $0) }
            let shaped = try PageWriter.shape(opaque, width: width, input: input)
            do throws(ImagingError) {
                return try PageWriter.write(shaped, encoding: encoding, to: output, input: input)
            } catch {
                throw Self.classify(error, name: name)
            }
        }
    }

    /// Page `index` loaded `width` pixels wide (pixels are rendered when pulled), its size
    /// checked before and after: a page that would be larger than the limit is refused before it
    /// is rendered, and one that comes out another size than its proportions give is an error.
    private func renderedImage(_ index: Int, width: Int) throws(ImagingError) -> VipsImageRef {
        let natural = try Self.load(input, page: index, scale: 1)
        let size = PDFPageSize(width: natural.width, height: natural.height)
        let expected = size.rows(atWidth: width)
        let evenExpected = expected + expected % 2
        if width * evenExpected > limits.maximumPagePixels {
            throw .tooLarge(
                path: "\(name), page \(index + 1)", width: width, height: evenExpected, limit: limits.maximumPagePixels)
        }
        guard size.isUsable else {
            throw .damagedPDF(
                path: name,
                reason: "page \(index + 1) has no usable size (libvips reads it as \(size.width)x\(size.height) points)")
        }
        // The header gives the page's size in points rounded to whole points, so the first
        // scale can miss the width by a pixel: correct it from what that scale gives.
        var scale = Double(width) / Double(natural.width)
        var page = try Self.load(input, page: index, scale: scale)
        for _ in 0..<3 where page.width != width {
            scale *= Double(width) / Double(page.width)
            page = try Self.load(input, page: index, scale: scale)
        }
        guard abs(page.width - width) <= 1, size.acceptedRows(atWidth: width).contains(page.height) else {
            throw .processingFailed(
                path: name, step: "rendering page \(index + 1)",
                reason:
                    "libvips gave \(page.width)x\(page.height) pixels where the page's \(size.width)x\(size.height) points give \(width)x\(expected)"
            )
        }
        let height = page.height + page.height % 2
        if width * height > limits.maximumPagePixels {
            throw .tooLarge(path: "\(name), page \(index + 1)", width: width, height: height, limit: limits.maximumPagePixels)
        }
        return page
    }

    /// Loads one page's header at a scale (pixels are rendered when pulled).
    private static func load(_ input: OpenedInput, page: Int, scale: Double) throws(ImagingError) -> VipsImageRef {
        guard let source = cvips_source_new_pread(input.descriptor) else {
            throw .processingFailed(path: input.name, step: "opening", reason: VipsRuntime.takeError())
        }
        defer { cvips_unref(source) }
        _ = try ImageLoader.detect(source, name: input.name, accepting: [.pdf])
        do throws(VipsFailure) {
            return try vipsImage { cvips_pdfload(source, $0, Int32(page), scale) }
        } catch {
            // libvips counts pages from 0 ("unable to load page 1" is the second page): say
            // which page in the numbering every message uses. With no text (another thread's
            // failure took the shared buffer), what failed is still this page's load.
            if error.reason.contains("unable to load page") || error.reason == VipsRuntime.noReason {
                throw .damagedPDF(path: input.name, reason: "poppler cannot read page \(page + 1)")
            }
            throw classify(.unreadable(path: input.name, reason: error.reason), name: input.name)
        }
    }

    /// Poppler's reasons, as libvips passes them on, turned into the cases callers act on.
    private static func classify(_ error: ImagingError, name: String) -> ImagingError {
        guard case .unreadable(_, let reason) = error else { return error }
        if reason.contains("encrypted") { return .encryptedPDF(path: name) }
        return .damagedPDF(path: name, reason: reason)
    }
}
