import Foundation
import NewsstandImaging
import NewsstandTestSupport
import Testing

@Suite(.tags(.needsTools)) struct PDFDocumentTests {
    static let a4 = (595.276, 841.89)

    @Test func countsAndRendersPagesOfTextIncludingALandscapeOne() throws {
        let folder = try Fixtures.folder()
        let pdf = folder.appendingPathComponent("issue.pdf")
        try Fixtures.pdf(pdf, pages: [Self.a4, Self.a4, (Self.a4.1, Self.a4.0)])
        let document = try PDFDocument(.path(pdf.path))
        #expect(document.pageCount == 3)

        let portrait = folder.appendingPathComponent("1.png")
        let first = try document.renderPage(0, encoding: .png, to: .newFile(portrait.path))
        // 1536 × 841.89 / 595.276 = 2172.3
        #expect(
            first
                == RenderedPage(
                    format: .png, width: 1536, height: 2172, byteCount: Int64(try Data.of(portrait).count),
                    alternativeByteCount: nil))
        #expect(try Fixtures.size(portrait) == (1536, 2172))
        // Black text on white paper with a red box: the page has ink, and white margins.
        #expect(try Fixtures.vips("min", portrait.path).hasPrefix("0"))
        #expect(
            try Fixtures.vips("getpoint", portrait.path, "5", "5").split(whereSeparator: \.isWhitespace) == ["255", "255", "255"])

        let landscape = folder.appendingPathComponent("3.png")
        let third = try document.renderPage(2, encoding: .png, to: .newFile(landscape.path))
        // 1536 × 595.276 / 841.89 = 1086.06
        #expect((third.width, third.height) == (1536, 1086))
        #expect(try Fixtures.size(landscape) == (1536, 1086))
    }

    /// Every page is exactly the width asked for and an even number of rows high, so it can be
    /// an @2x master.
    @Test(arguments: [1536, 1535, 777, 2048])
    func widthIsExactAndHeightEven(width: Int) throws {
        let folder = try Fixtures.folder()
        let pdf = folder.appendingPathComponent("odd.pdf")
        try Fixtures.pdf(pdf, pages: [(612.3, 791.7)])
        let out = folder.appendingPathComponent("p.png")
        let page = try PDFDocument(.path(pdf.path)).renderPage(0, width: width, encoding: .png, to: .newFile(out.path))
        let size = try Fixtures.size(out)
        #expect(size.width == width && page.width == width)
        #expect(size.height % 2 == 0 && size.height == page.height)
        #expect(abs(Double(size.height) - Double(width) * 791.7 / 612.3) <= 1.5)
    }

    @Test func pagesRenderedInParallelMatchPagesRenderedOneByOne() throws {
        let folder = try Fixtures.folder()
        let pdf = folder.appendingPathComponent("issue.pdf")
        try Fixtures.pdf(pdf, pages: Array(repeating: Self.a4, count: 4))
        let document = try PDFDocument(.path(pdf.path))
        let parallel = (0..<4).map { folder.appendingPathComponent("parallel-\($0).png") }
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            do {
                _ = try document.renderPage(index, width: 600, encoding: .png, to: .newFile(parallel[index].path))
            } catch {
                Issue.record("page \(index): \(error)")
            }
        }
        for index in 0..<4 {
            let single = folder.appendingPathComponent("single-\(index).png")
            _ = try document.renderPage(index, width: 600, encoding: .png, to: .newFile(single.path))
            #expect(try Data.of(single) == Data.of(parallel[index]), "page \(index)")
        }
        // Pages differ (their headings do): the comparison above is not trivially true.
        #expect(try Data.of(parallel[0]) != Data.of(parallel[1]))
    }

    @Test func anEncryptedPDFIsAClearError() throws {
        let folder = try Fixtures.folder()
        let plain = folder.appendingPathComponent("plain.pdf")
        try Fixtures.pdf(plain, pages: [Self.a4])
        let locked = folder.appendingPathComponent("locked.pdf")
        try Fixtures.run("qpdf", ["--encrypt", "reader", "owner", "256", "--", plain.path, locked.path])
        #expect(throws: ImagingError.encryptedPDF(path: locked.path)) { try PDFDocument(.path(locked.path)) }

        // Only an owner password (no editing, no printing): readers open it, and so do we.
        let restricted = folder.appendingPathComponent("restricted.pdf")
        try Fixtures.run(
            "qpdf", ["--encrypt", "", "owner", "256", "--print=none", "--modify=none", "--", plain.path, restricted.path])
        let document = try PDFDocument(.path(restricted.path))
        #expect(document.pageCount == 1)
        let out = folder.appendingPathComponent("r.png")
        #expect(try document.renderPage(0, width: 300, encoding: .png, to: .newFile(out.path)).width == 300)
    }

    @Test func aDamagedPDFIsAClearError() throws {
        let folder = try Fixtures.folder()
        let plain = folder.appendingPathComponent("plain.pdf")
        try Fixtures.pdf(plain, pages: [Self.a4])
        let cut = folder.appendingPathComponent("cut.pdf")
        try Data.of(plain).prefix(600).write(to: cut)
        do {
            _ = try PDFDocument(.path(cut.path))
            Issue.record("a damaged PDF opened")
        } catch {
            guard case .damagedPDF(let path, let reason) = error else {
                Issue.record("expected damagedPDF, got \(error)")
                return
            }
            #expect(path == cut.path)
            #expect(reason.contains("damaged"), "poppler's reason: \(reason)")
        }
        let png = try Fixtures.png(folder.appendingPathComponent("page.png"), width: 10, height: 10)
        let renamed = folder.appendingPathComponent("page.pdf")
        try FileManager.default.moveItem(at: png, to: renamed)
        #expect(throws: ImagingError.unsupportedFormat(path: renamed.path, found: "PNG", accepted: [.pdf])) {
            try PDFDocument(.path(renamed.path))
        }
    }

    /// libvips cannot hold a dimension over 10,000,000 pixels and kept its default of 1 there: a
    /// 1 × 200,000 point page came out as a 1536 × 2 strip. The rows a page will have are worked
    /// out before it is rendered, so such a page is refused with its number, and a page libvips
    /// gives no size (a dimension it read as 1 point) is refused too.
    @Test func aPageOfImpossibleProportionsIsRefusedNotRenderedAsAStrip() throws {
        let folder = try Fixtures.folder()
        let out = folder.appendingPathComponent("x.png")
        let strip = folder.appendingPathComponent("strip.pdf")
        try HandMadePDF(pages: [.text("strip", mediaBox: "0 0 1 200000")]).write(to: strip)
        #expect(throws: ImagingError.tooLarge(path: "\(strip.path), page 1", width: 1536, height: 307_200_000, limit: 16_777_216))
        {
            try PDFDocument(.path(strip.path)).renderPage(0, to: .newFile(out.path))
        }
        let second = folder.appendingPathComponent("second.pdf")
        try HandMadePDF(pages: [.text("one", mediaBox: "0 0 595 842"), .text("two", mediaBox: "0 0 10 100000")]).write(to: second)
        #expect(throws: ImagingError.tooLarge(path: "\(second.path), page 2", width: 1536, height: 15_360_000, limit: 16_777_216))
        {
            try PDFDocument(.path(second.path)).renderPage(1, to: .newFile(out.path))
        }
        let thin = folder.appendingPathComponent("thin.pdf")
        try HandMadePDF(pages: [.text("thin", mediaBox: "0 0 595 1.2")]).write(to: thin)
        #expect(
            throws: ImagingError.damagedPDF(
                path: thin.path, reason: "page 1 has no usable size (libvips reads it as 595x1 points)")
        ) {
            try PDFDocument(.path(thin.path)).renderPage(0, to: .newFile(out.path))
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
        // Thin but real: 4 points high at 1536 wide is 10 rows, rendered.
        let low = folder.appendingPathComponent("low.pdf")
        try HandMadePDF(pages: [.text("low", mediaBox: "0 0 595 4")]).write(to: low)
        let page = try PDFDocument(.path(low.path)).renderPage(0, encoding: .png, to: .newFile(out.path))
        #expect((page.width, page.height) == (1536, 10))
        #expect(try Fixtures.size(out) == (1536, 10))
    }

    /// libvips counts pages from 0 ("unable to load page 1" was the second page): the error
    /// names the page as every message does.
    @Test func aPageTheTreeListsButTheFileLacksIsNamedCountingFromOne() throws {
        let folder = try Fixtures.folder()
        let pdf = folder.appendingPathComponent("gap.pdf")
        var file = HandMadePDF(pages: [.text("one")])
        file.missingKids = 1
        try file.write(to: pdf)
        let document = try PDFDocument(.path(pdf.path))
        #expect(document.pageCount == 2)
        let out = folder.appendingPathComponent("x.png")
        #expect(throws: ImagingError.damagedPDF(path: pdf.path, reason: "poppler cannot read page 2")) {
            try document.renderPage(1, to: .newFile(out.path))
        }
        #expect(try document.renderPage(0, width: 300, encoding: .png, to: .newFile(out.path)).width == 300)
    }

    /// A page of text stays PNG; a page that is a photograph becomes JPEG.
    @Test func automaticEncodingPicksJPEGForPhotographsOnly() throws {
        let folder = try Fixtures.folder()
        let text = folder.appendingPathComponent("text.pdf")
        try Fixtures.pdf(text, pages: [Self.a4])
        let textPage = try PDFDocument(.path(text.path)).renderPage(
            0, width: 768, to: .newFile(folder.appendingPathComponent("t").path))
        #expect(textPage.format == .png)
        #expect(try #require(textPage.alternativeByteCount) > textPage.byteCount / 2)

        let photo = try Fixtures.jpeg(folder.appendingPathComponent("photo.jpg"), width: 600, height: 800, quality: 92)
        let photoPDF = folder.appendingPathComponent("photo.pdf")
        try Fixtures.run("img2pdf", ["-o", photoPDF.path, photo.path])
        let out = folder.appendingPathComponent("p")
        let photoPage = try PDFDocument(.path(photoPDF.path)).renderPage(0, width: 768, to: .newFile(out.path))
        #expect(photoPage.format == .jpeg)
        #expect(Double(photoPage.byteCount) <= Double(try #require(photoPage.alternativeByteCount)) * PageEncoding.jpegShareLimit)
        #expect(try Data.of(out).prefix(3) == Data([0xFF, 0xD8, 0xFF]))
        #expect(Int64(try Data.of(out).count) == photoPage.byteCount)
    }
}
