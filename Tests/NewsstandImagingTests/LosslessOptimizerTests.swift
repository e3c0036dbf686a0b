import Foundation
import NewsstandImaging
import NewsstandTestSupport
import Testing

@Suite(.tags(.needsTools)) struct LosslessOptimizerTests {
    let optimizer = LosslessOptimizer()
    static let adobeRGB = "/usr/share/color/icc/colord/AdobeRGB1998.icc"
    static let sRGB = "/usr/share/color/icc/colord/sRGB.icc"

    /// Every kind of PNG: each optimised one decodes to the same pixels, by libvips and by a
    /// zlib-only decoder of our own that follows the PNG specification.
    @Test(
        arguments: [
            ("rgb8", ["colourType": 2]),
            ("rgb16", ["colourType": 2, "bitDepth": 16]),
            ("rgba8", ["colourType": 6, "alpha": "ramp"]),
            ("rgba16", ["colourType": 6, "bitDepth": 16, "alpha": "ramp"]),
            ("grey8", ["colourType": 0]),
            ("grey16", ["colourType": 0, "bitDepth": 16]),
            ("grey1", ["colourType": 0, "bitDepth": 1, "pattern": "flat"]),
            ("grey2", ["colourType": 0, "bitDepth": 2]),
            ("grey4", ["colourType": 0, "bitDepth": 4, "pattern": "flat"]),
            ("greyAlpha", ["colourType": 4, "alpha": "ramp"]),
            ("palette8", ["colourType": 3, "paletteSize": 200]),
            ("palette4flat", ["colourType": 3, "bitDepth": 4, "paletteSize": 12, "pattern": "flat"]),
            ("paletteTransparent", ["colourType": 3, "paletteSize": 16, "pattern": "flat", "transparentIndex": 3]),
            ("rgbColourKey", ["colourType": 2, "pattern": "flat", "transparentColour": [85, 85, 85]]),
            ("flat", ["colourType": 2, "pattern": "flat"]),
        ] as [(String, [String: any Sendable])])
    func neverChangesAPixel(name: String, options: [String: any Sendable]) throws {
        let folder = try Fixtures.folder()
        let original = try Fixtures.png(folder.appendingPathComponent("\(name).png"), width: 203, height: 101, options)
        let output = folder.appendingPathComponent("\(name).optimized.png")
        let outcome = try optimizer.optimize(.path(original.path), to: .newFile(output.path))
        switch outcome {
        case .optimized(let before, let after):
            #expect(before == Int64(try Data.of(original).count))
            #expect(after == Int64(try Data.of(output).count))
            #expect(after < before)
            #expect(try Fixtures.pngPixelComparison(original, output) == "same", "\(name)")
            #expect(try PixelComparer().compare(.path(original.path), .path(output.path)) == .identical)
        case .keptOriginal(_, let reason):
            #expect(!FileManager.default.fileExists(atPath: output.path), "\(name): \(reason)")
            // A palette that loses colours is dropped for the best safe encoding, never kept
            // until the final check has to refuse it.
            guard case .notSmaller = reason else {
                Issue.record("\(name): kept for \(reason)")
                return
            }
        }
        // Level 1 zlib leaves room: all but the kinds libvips cannot write as they were are
        // smaller. A palette with a transparent entry comes back from libimagequant with other
        // colours under alpha 0: invisible, but a changed pixel, so the original stays.
        if !["palette8", "grey2", "paletteTransparent"].contains(name) {
            #expect(outcome.bytesSaved > 0, "\(name): \(outcome)")
        }
    }

    @Test func aPaletteImageStaysAPaletteImage() throws {
        let folder = try Fixtures.folder()
        let original = try Fixtures.png(
            folder.appendingPathComponent("p.png"), width: 300, height: 200,
            ["colourType": 3, "paletteSize": 12, "pattern": "flat"])
        let output = folder.appendingPathComponent("o.png")
        let outcome = try optimizer.optimize(.path(original.path), to: .newFile(output.path))
        #expect(outcome.bytesSaved > 0)
        #expect(try Data.of(output)[25] == 3, "colour type of the output's IHDR")
        #expect(try Fixtures.pngPixelComparison(original, output) == "same")
    }

    @Test func stripsTextAndEXIFButKeepsAWideGamutProfile() throws {
        let folder = try Fixtures.folder()
        let exif = "4d4d002a00000008000101310002000000050000001a000000004869210000"  // Software: "Hi!"
        let tagged = try Fixtures.png(
            folder.appendingPathComponent("wide.png"), width: 64, height: 64,
            ["iccProfile": Self.adobeRGB, "text": "secret layout notes", "exif": exif])
        let out = folder.appendingPathComponent("wide.out.png")
        #expect(try optimizer.optimize(.path(tagged.path), to: .newFile(out.path)).bytesSaved > 0)
        let bytes = try Data.of(out)
        #expect(bytes.range(of: Data("iCCP".utf8)) != nil, "the Adobe RGB profile is kept")
        #expect(bytes.range(of: Data("tEXt".utf8)) == nil && bytes.range(of: Data("secret".utf8)) == nil)
        #expect(bytes.range(of: Data("eXIf".utf8)) == nil)

        let srgb = try Fixtures.png(
            folder.appendingPathComponent("srgb.png"), width: 64, height: 64, ["iccProfile": Self.sRGB, "text": "notes"])
        let srgbOut = folder.appendingPathComponent("srgb.out.png")
        #expect(try optimizer.optimize(.path(srgb.path), to: .newFile(srgbOut.path)).bytesSaved > 0)
        let srgbBytes = try Data.of(srgbOut)
        #expect(srgbBytes.range(of: Data("iCCP".utf8)) == nil, "an sRGB profile says nothing an untagged file does not")
        #expect(srgbBytes.range(of: Data("tEXt".utf8)) == nil)
    }

    @Test func anAlreadyOptimalPNGIsKept() throws {
        let folder = try Fixtures.folder()
        let first = try Fixtures.png(folder.appendingPathComponent("a.png"), width: 120, height: 90)
        let once = folder.appendingPathComponent("once.png")
        #expect(try optimizer.optimize(.path(first.path), to: .newFile(once.path)).bytesSaved > 0)
        let twice = folder.appendingPathComponent("twice.png")
        let outcome = try optimizer.optimize(.path(once.path), to: .newFile(twice.path))
        guard case .keptOriginal(let bytes, .notSmaller) = outcome else {
            Issue.record("expected notSmaller, got \(outcome)")
            return
        }
        #expect(bytes == Int64(try Data.of(once).count))
        #expect(!FileManager.default.fileExists(atPath: twice.path))
    }

    // MARK: JPEG

    /// djpeg (libjpeg-turbo's own decoder, not libvips) decodes both to the same PPM bytes.
    @Test(arguments: [false, true])
    func aJPEGKeepsItsPixelsAndGetsSmaller(progressive: Bool) throws {
        let folder = try Fixtures.folder()
        let png = try Fixtures.png(folder.appendingPathComponent("photo.png"), width: 640, height: 480)
        let original = folder.appendingPathComponent("photo.jpg")
        try Fixtures.vips("copy", png.path, original.path + "[Q=88,interlace=\(progressive)]")
        let withComment = folder.appendingPathComponent("commented.jpg")
        try JPEGMarkers.insertComment("made by a layout program", from: original, to: withComment)
        let out = folder.appendingPathComponent("photo.out.jpg")
        let outcome = try optimizer.optimize(.path(withComment.path), to: .newFile(out.path))
        #expect(outcome.bytesSaved > 0, "\(outcome)")
        let decodedOriginal = try Fixtures.run(
            "djpeg", ["-pnm", "-outfile", folder.appendingPathComponent("a.ppm").path, withComment.path])
        _ = decodedOriginal
        try Fixtures.run("djpeg", ["-pnm", "-outfile", folder.appendingPathComponent("b.ppm").path, out.path])
        #expect(try Data.of(folder.appendingPathComponent("a.ppm")) == Data.of(folder.appendingPathComponent("b.ppm")))
        #expect(try PixelComparer().compare(.path(withComment.path), .path(out.path)) == .identical)
        let bytes = try Data.of(out)
        #expect(bytes.range(of: Data("layout program".utf8)) == nil)
        // Progressive stays progressive (SOF2), baseline stays sequential (SOF0 or SOF1).
        #expect((bytes.range(of: Data([0xFF, 0xC2])) != nil) == progressive)
    }

    @Test func aJPEGWithAWideGamutProfileKeepsIt() throws {
        let folder = try Fixtures.folder()
        let png = try Fixtures.png(folder.appendingPathComponent("p.png"), width: 160, height: 120)
        let original = folder.appendingPathComponent("p.jpg")
        try Fixtures.vips("copy", png.path, original.path + "[Q=90,profile=\(Self.adobeRGB)]")
        let out = folder.appendingPathComponent("p.out.jpg")
        _ = try optimizer.optimize(.path(original.path), to: .newFile(out.path))
        #expect(try Data.of(out).range(of: Data("ICC_PROFILE".utf8)) != nil)
        #expect(try Fixtures.run("vipsheader", ["-a", out.path]).contains("icc-profile-data"))
    }

    @Test func aJPEGWithAnOrientationTagIsKept() throws {
        let folder = try Fixtures.folder()
        let plain = try Fixtures.jpeg(folder.appendingPathComponent("plain.jpg"), width: 64, height: 32)
        let turned = folder.appendingPathComponent("turned.jpg")
        try JPEGMarkers.insertEXIFOrientation(6, from: plain, to: turned)
        let out = folder.appendingPathComponent("out.jpg")
        let outcome = try optimizer.optimize(.path(turned.path), to: .newFile(out.path))
        #expect(outcome == .keptOriginal(bytes: Int64(try Data.of(turned).count), reason: .orientationTag(6)))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func aTruncatedJPEGIsAnErrorAndLeavesNothing() throws {
        let folder = try Fixtures.folder()
        let whole = try Fixtures.jpeg(folder.appendingPathComponent("whole.jpg"), width: 400, height: 300)
        let cut = folder.appendingPathComponent("cut.jpg")
        let bytes = try Data.of(whole)
        try bytes.prefix(bytes.count / 2).write(to: cut)
        let out = folder.appendingPathComponent("out.jpg")
        #expect(throws: ImagingError.unreadable(path: cut.path, reason: "the file ends before the image does")) {
            try optimizer.optimize(.path(cut.path), to: .newFile(out.path))
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func libjpegMemoryIsCapped() throws {
        let folder = try Fixtures.folder()
        let big = try Fixtures.jpeg(folder.appendingPathComponent("big.jpg"), width: 1200, height: 1000)
        let out = folder.appendingPathComponent("out.jpg")
        let tight = LosslessOptimizer(limits: ImagingLimits(maximumJPEGMemory: 1 << 20))
        #expect(throws: ImagingError.exceedsMemoryLimit(path: big.path, limit: 1 << 20)) {
            try tight.optimize(.path(big.path), to: .newFile(out.path))
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A real full disk: a 64 KiB tmpfs (mounting needs root, which CI has).
    @Test(.enabled(if: getuid() == 0, "mounting a tmpfs needs root"))
    func aFullDiskIsAWriteErrorAndLeavesNothing() throws {
        let folder = try Fixtures.folder()
        let png = try Fixtures.png(folder.appendingPathComponent("a.png"), width: 400, height: 400, ["zlibLevel": 0])
        let jpeg = try Fixtures.jpeg(folder.appendingPathComponent("a.jpg"), width: 800, height: 800, quality: 100)
        try TinyDisk.with(bytes: 64 << 10) { (disk: URL) throws in
            for (input, name) in [(png, "a.png"), (jpeg, "a.jpg")] {
                let out = disk.appendingPathComponent(name)
                #expect(throws: ImagingError.cannotWrite(path: out.path, reason: "No space left on device")) {
                    try optimizer.optimize(.path(input.path), to: .newFile(out.path))
                }
                #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == [])
            }
            let derived = disk.appendingPathComponent("derived.png")
            #expect(throws: ImagingError.cannotWrite(path: derived.path, reason: "No space left on device")) {
                try NormalSizeDeriver().derive(from: .path(png.path), to: .newFile(derived.path))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path) == [])
        }
    }

    @Test func webPIsLeftAlone() throws {
        let folder = try Fixtures.folder()
        let png = try Fixtures.png(folder.appendingPathComponent("a.png"), width: 20, height: 20)
        let webp = folder.appendingPathComponent("a.webp")
        try Fixtures.vips("copy", png.path, webp.path)
        let out = folder.appendingPathComponent("out.webp")
        #expect(
            try optimizer.optimize(.path(webp.path), to: .newFile(out.path))
                == .keptOriginal(bytes: Int64(try Data.of(webp).count), reason: .formatNotOptimized(.webp)))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}

@Suite(.tags(.needsTools)) struct GreyReductionTests {
    /// A page of black text saved as RGB: stored as grey it takes a third of the samples, and
    /// shows the same (our zlib-only decoder expands grey to RGB as the PNG specification says).
    @Test(arguments: [("rgb", 2, 8), ("rgba", 6, 8), ("rgb16", 2, 16)])
    func aColourImageThatIsGreyIsStoredAsGrey(name: String, colourType: Int, bitDepth: Int) throws {
        let folder = try Fixtures.folder()
        let grey = try Fixtures.png(
            folder.appendingPathComponent("grey.png"), width: 300, height: 200,
            ["colourType": 0, "bitDepth": bitDepth, "zlibLevel": 9])
        let alpha = try Fixtures.png(
            folder.appendingPathComponent("alpha.png"), width: 300, height: 200, ["colourType": 0, "pattern": "flat"])
        let colour = folder.appendingPathComponent("\(name).png")
        // The grey image as RGB (vips colourspace), with alpha from another grey image for RGBA.
        let rgb = folder.appendingPathComponent("rgb.v")
        try Fixtures.vips("colourspace", grey.path, rgb.path, bitDepth == 16 ? "rgb16" : "srgb")
        if colourType == 6 {
            try Fixtures.vips("bandjoin", "\(rgb.path) \(alpha.path)", colour.path + "[compression=1]")
        } else {
            try Fixtures.vips("copy", rgb.path, colour.path + "[compression=1]")
        }
        let out = folder.appendingPathComponent("out.png")
        let outcome = try LosslessOptimizer().optimize(.path(colour.path), to: .newFile(out.path))
        #expect(outcome.bytesSaved > 0)
        let ihdr = [UInt8](try Data.of(out))
        #expect(Int(ihdr[25]) == (colourType == 6 ? 4 : 0), "stored as grey\(colourType == 6 ? " and alpha" : "")")
        #expect(Int(ihdr[24]) == bitDepth)
        #expect(try Fixtures.pngPixelComparison(colour, out) == "same")
        #expect(try PixelComparer().compare(.path(colour.path), .path(out.path)) == .identical)
    }

    @Test func aColourImageWithOneColouredPixelStaysColour() throws {
        let folder = try Fixtures.folder()
        let grey = try Fixtures.png(folder.appendingPathComponent("grey.png"), width: 120, height: 80, ["colourType": 0])
        let rgb = folder.appendingPathComponent("rgb.v")
        try Fixtures.vips("colourspace", grey.path, rgb.path, "srgb")
        let dot = folder.appendingPathComponent("dot.png")
        try Fixtures.vips("draw_rect", rgb.path, "255 0 0", "60", "40", "1", "1")
        try Fixtures.vips("copy", rgb.path, dot.path + "[compression=1]")
        let out = folder.appendingPathComponent("out.png")
        _ = try LosslessOptimizer().optimize(.path(dot.path), to: .newFile(out.path))
        #expect([UInt8](try Data.of(out))[25] == 2)
        #expect(try Fixtures.pngPixelComparison(dot, out) == "same")
    }
}

@Suite(.tags(.needsTools)) struct JPEGColourSpaceTests {
    /// CMYK JPEGs (print workflows make them) carry an Adobe marker that says how to read their
    /// channels; the rewritten file must decode to the same four channels.
    @Test func aCMYKJPEGKeepsItsPixels() throws {
        let folder = try Fixtures.folder()
        let png = try Fixtures.png(folder.appendingPathComponent("p.png"), width: 200, height: 160)
        let cmyk = folder.appendingPathComponent("cmyk.v")
        try Fixtures.vips("colourspace", png.path, cmyk.path, "cmyk")
        let original = folder.appendingPathComponent("cmyk.jpg")
        try Fixtures.vips("copy", cmyk.path, original.path + "[Q=85]")
        #expect(try Fixtures.run("vipsheader", ["-f", "bands", original.path]).hasPrefix("4"))
        let out = folder.appendingPathComponent("out.jpg")
        let outcome = try LosslessOptimizer().optimize(.path(original.path), to: .newFile(out.path))
        #expect(outcome.bytesSaved > 0, "\(outcome)")
        #expect(try PixelComparer().compare(.path(original.path), .path(out.path)) == .identical)
        try Fixtures.run("djpeg", ["-outfile", folder.appendingPathComponent("a.pnm").path, original.path])
        try Fixtures.run("djpeg", ["-outfile", folder.appendingPathComponent("b.pnm").path, out.path])
        #expect(try Data.of(folder.appendingPathComponent("a.pnm")) == Data.of(folder.appendingPathComponent("b.pnm")))
    }

    /// The build hands over descriptors it opened itself; the optimiser reads and writes them.
    @Test func optimisesBetweenDescriptors() throws {
        let folder = try Fixtures.folder()
        let original = try Fixtures.jpeg(folder.appendingPathComponent("a.jpg"), width: 300, height: 200)
        let input = open(original.path, O_RDONLY)
        let outputPath = folder.appendingPathComponent("b.jpg")
        let output = open(outputPath.path, O_RDWR | O_CREAT | O_EXCL, 0o644)
        try #require(input >= 0 && output >= 0)
        defer {
            close(input)
            close(output)
        }
        let outcome = try LosslessOptimizer().optimize(.descriptor(input, name: "a.jpg"), to: .descriptor(output, name: "b.jpg"))
        guard case .optimized(let before, let after) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(before == Int64(try Data.of(original).count))
        #expect(after == Int64(try Data.of(outputPath).count))
        #expect(try PixelComparer().compare(.path(original.path), .path(outputPath.path)) == .identical)
    }
}
