import Foundation
import NewsstandImaging
import NewsstandTestSupport
import Testing

@Suite(.tags(.needsTools)) struct PageImageScalerTests {
    let scaler = PageImageScaler()

    /// A folder as a designer hands it over: PNG, JPEG, WebP and HEIF pages of different sizes,
    /// one 16-bit, one with transparency, one too small (scaled up), one turned by EXIF.
    @Test func scalesAFolderOfMixedFormatsToOneWidth() throws {
        let folder = try Fixtures.folder()
        let pages = folder.appendingPathComponent("pages")
        try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
        try Fixtures.png(pages.appendingPathComponent("page1.png"), width: 800, height: 1001, ["pattern": "flat"])
        try Fixtures.jpeg(pages.appendingPathComponent("page2.jpg"), width: 1200, height: 1600)
        let webpSource = try Fixtures.png(folder.appendingPathComponent("w.png"), width: 640, height: 480)
        try Fixtures.vips("copy", webpSource.path, pages.appendingPathComponent("page3.webp").path)
        let heifSource = try Fixtures.png(folder.appendingPathComponent("h.png"), width: 500, height: 700)
        try Fixtures.vips("copy", heifSource.path, pages.appendingPathComponent("page4.heic").path)
        try Fixtures.png(pages.appendingPathComponent("page5.png"), width: 300, height: 400, ["colourType": 2, "bitDepth": 16])
        try Fixtures.png(pages.appendingPathComponent("page6.png"), width: 400, height: 300, ["colourType": 6, "alpha": "ramp"])
        let plain = try Fixtures.jpeg(folder.appendingPathComponent("plain.jpg"), width: 600, height: 400)
        try JPEGMarkers.insertEXIFOrientation(8, from: plain, to: pages.appendingPathComponent("page7.jpg"))

        let expected: [(String, Int, ImageFormat?)] = [
            ("page1.png", 752, .png),  // 1001 × 600 / 800 = 750.75 → 751 → even
            ("page2.jpg", 800, nil),
            ("page3.webp", 450, nil),
            ("page4.heic", 840, nil),
            ("page5.png", 800, nil),
            ("page6.png", 450, .png),  // transparency: always PNG
            ("page7.jpg", 900, nil),  // turned: 400 × 600 upright
        ]
        for (name, height, format) in expected {
            let out = folder.appendingPathComponent("out-\(name)")
            let page = try scaler.scale(.path(pages.appendingPathComponent(name).path), toWidth: 600, to: .newFile(out.path))
            #expect((page.width, page.height) == (600, height), "\(name)")
            #expect(try Fixtures.size(out) == (600, height), "\(name)")
            if let format { #expect(page.format == format, "\(name)") }
            #expect(try Fixtures.run("vipsheader", ["-f", "format", out.path]).contains("UCHAR"), "\(name): 8 bits")
        }
        let transparent = try Fixtures.run("vipsheader", ["-f", "bands", folder.appendingPathComponent("out-page6.png").path])
        #expect(transparent.hasPrefix("4"))
    }

    @Test func explicitEncodingsAreObeyed() throws {
        let folder = try Fixtures.folder()
        let source = try Fixtures.png(folder.appendingPathComponent("s.png"), width: 320, height: 240, ["pattern": "flat"])
        let jpeg = folder.appendingPathComponent("j")
        #expect(try scaler.scale(.path(source.path), toWidth: 160, encoding: .jpeg, to: .newFile(jpeg.path)).format == .jpeg)
        #expect(try Data.of(jpeg).prefix(2) == Data([0xFF, 0xD8]))
        let png = folder.appendingPathComponent("p")
        #expect(try scaler.scale(.path(source.path), toWidth: 160, encoding: .png, to: .newFile(png.path)).format == .png)
        #expect(try Data.of(png).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func aPDFIsNotAPageImage() throws {
        let folder = try Fixtures.folder()
        let pdf = folder.appendingPathComponent("x.pdf")
        try Fixtures.pdf(pdf, pages: [(200, 200)])
        #expect(throws: ImagingError.unsupportedFormat(path: pdf.path, found: "PDF", accepted: [.png, .jpeg, .webp, .heif])) {
            try scaler.scale(.path(pdf.path), to: .newFile(folder.appendingPathComponent("o").path))
        }
    }

    @Test func aNarrowTallImageThatWouldBeHugeIsRefused() throws {
        let folder = try Fixtures.folder()
        let strip = try Fixtures.png(folder.appendingPathComponent("strip.png"), width: 10, height: 200, ["pattern": "flat"])
        let out = folder.appendingPathComponent("o.png")
        // 1536 wide → 30,720 rows: 47 million pixels.
        #expect(throws: ImagingError.tooLarge(path: strip.path, width: 1536, height: 30720, limit: 16_777_216)) {
            try scaler.scale(.path(strip.path), to: .newFile(out.path))
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
