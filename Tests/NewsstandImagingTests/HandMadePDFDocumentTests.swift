import Foundation
import NewsstandImaging
import NewsstandTestSupport
import Testing

/// `PDFDocument`'s limits and page numbers on PDFs written by hand in this process
/// (`HandMadePDF`): a page outside the document, more pages than the limit, a page too tall. The
/// PDFs drawn with cairo, rendering and libvips' own error texts are in `PDFDocumentTests`.
@Suite struct HandMadePDFDocumentTests {
    /// An A4 page in points, as `PDFDocumentTests.a4` gives it to cairo.
    static let a4 = "0 0 595.276 841.89"

    @Test func aPageOutsideTheDocumentIsAnError() throws {
        let folder = try Shell.temporaryFolder("imaging")
        let pdf = folder.appendingPathComponent("two.pdf")
        try HandMadePDF(pages: [.text("one", mediaBox: Self.a4), .text("two", mediaBox: Self.a4)]).write(to: pdf)
        let document = try PDFDocument(.path(pdf.path))
        let out = folder.appendingPathComponent("x.png")
        #expect(throws: ImagingError.pageOutOfRange(path: pdf.path, page: 2, pageCount: 2)) {
            try document.renderPage(2, to: .newFile(out.path))
        }
        #expect(throws: ImagingError.pageOutOfRange(path: pdf.path, page: -1, pageCount: 2)) {
            try document.renderPage(-1, to: .newFile(out.path))
        }
        #expect(throws: ImagingError.invalidArgument("a page width must be positive, not 0")) {
            try document.renderPage(0, width: 0, to: .newFile(out.path))
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func aPDFWithMorePagesThanTheLimitIsRefused() throws {
        let folder = try Shell.temporaryFolder("imaging")
        let pdf = folder.appendingPathComponent("thick.pdf")
        try HandMadePDF(pages: (1...5).map { .text("\($0)", mediaBox: Self.a4) }).write(to: pdf)
        #expect(throws: ImagingError.tooManyPages(path: pdf.path, pageCount: 5, limit: 4)) {
            try PDFDocument(.path(pdf.path), limits: ImagingLimits(maximumPDFPages: 4))
        }
        #expect(try PDFDocument(.path(pdf.path), limits: ImagingLimits(maximumPDFPages: 5)).pageCount == 5)
    }

    /// A 100 × 5000 point strip at 1536 pixels wide would be 76,800 rows: refused before rendering.
    @Test func aPageTooTallIsRefused() throws {
        let folder = try Shell.temporaryFolder("imaging")
        let pdf = folder.appendingPathComponent("strip.pdf")
        try HandMadePDF(pages: [.text("strip", mediaBox: "0 0 100 5000")]).write(to: pdf)
        let out = folder.appendingPathComponent("x.png")
        #expect(throws: ImagingError.tooLarge(path: "\(pdf.path), page 1", width: 1536, height: 76800, limit: 16_777_216)) {
            try PDFDocument(.path(pdf.path)).renderPage(0, to: .newFile(out.path))
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
