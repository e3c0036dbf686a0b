import Foundation
import NewsstandImaging
import NewsstandTestSupport
import Testing

@Suite(.tags(.needsTools)) struct NormalSizeDeriverTests {
    let deriver = NormalSizeDeriver()

    @Test func halvesAPNGExactlyAndKeepsItsFormat() throws {
        let folder = try Fixtures.folder()
        let master = try Fixtures.png(folder.appendingPathComponent("1-0@2x.png"), width: 300, height: 200)
        let output = folder.appendingPathComponent("1-0.png")
        let derived = try deriver.derive(from: .path(master.path), to: .newFile(output.path))
        #expect(derived == DerivedImage(format: .png, width: 150, height: 100, byteCount: Int64(try Data.of(output).count)))
        #expect(try Fixtures.size(output) == (150, 100))
        #expect(try Fixtures.run("vipsheader", ["-f", "vips-loader", output.path]).hasPrefix("pngload"))
    }

    @Test func theSameMasterGivesTheSameBytesEveryTime() throws {
        let folder = try Fixtures.folder()
        for (name, options) in [
            ("rgb", [:]), ("rgba", ["colourType": 6, "alpha": "ramp"]), ("grey16", ["colourType": 0, "bitDepth": 16]),
        ] as [(String, [String: Any])] {
            let master = try Fixtures.png(folder.appendingPathComponent("\(name)@2x.png"), width: 258, height: 130, options)
            let first = folder.appendingPathComponent("\(name)-first.png")
            let second = folder.appendingPathComponent("\(name)-second.png")
            _ = try deriver.derive(from: .path(master.path), to: .newFile(first.path))
            _ = try deriver.derive(from: .path(master.path), to: .newFile(second.path))
            #expect(try Data.of(first) == Data.of(second), "\(name)")
        }
        let jpeg = try Fixtures.jpeg(folder.appendingPathComponent("photo@2x.jpg"), width: 320, height: 240)
        let a = folder.appendingPathComponent("a.jpg")
        let b = folder.appendingPathComponent("b.jpg")
        _ = try deriver.derive(from: .path(jpeg.path), to: .newFile(a.path))
        _ = try deriver.derive(from: .path(jpeg.path), to: .newFile(b.path))
        #expect(try Data.of(a) == Data.of(b))
    }

    @Test func derivesJPEGAndWebPInTheirOwnFormat() throws {
        let folder = try Fixtures.folder()
        let jpeg = try Fixtures.jpeg(folder.appendingPathComponent("p@2x.jpg"), width: 400, height: 300)
        let out = folder.appendingPathComponent("p.jpg")
        #expect(try deriver.derive(from: .path(jpeg.path), to: .newFile(out.path)).format == .jpeg)
        #expect(try Fixtures.size(out) == (200, 150))
        #expect(try Data.of(out).prefix(3) == Data([0xFF, 0xD8, 0xFF]))

        let png = try Fixtures.png(folder.appendingPathComponent("w.png"), width: 64, height: 48)
        let webp = folder.appendingPathComponent("w@2x.webp")
        try Fixtures.vips("copy", png.path, webp.path)
        let webpOut = folder.appendingPathComponent("w.webp")
        #expect(try deriver.derive(from: .path(webp.path), to: .newFile(webpOut.path)).format == .webp)
        #expect(try Fixtures.size(webpOut) == (32, 24))
        #expect(try Fixtures.run("vipsheader", ["-f", "vips-loader", webpOut.path]).hasPrefix("webpload"))
    }

    @Test func keepsSixteenBitsAlphaAndGrey() throws {
        let folder = try Fixtures.folder()
        let cases: [(String, [String: Any], String, String)] = [
            ("rgb16", ["colourType": 2, "bitDepth": 16], "USHORT", "3"),
            ("rgba", ["colourType": 6, "alpha": "ramp"], "UCHAR", "4"),
            ("rgba16", ["colourType": 6, "bitDepth": 16, "alpha": "ramp"], "USHORT", "4"),
            ("grey", ["colourType": 0], "UCHAR", "1"),
            ("greyalpha", ["colourType": 4, "alpha": "ramp"], "UCHAR", "2"),
        ]
        for (name, options, format, bands) in cases {
            let master = try Fixtures.png(folder.appendingPathComponent("\(name)@2x.png"), width: 40, height: 20, options)
            let out = folder.appendingPathComponent("\(name).png")
            _ = try deriver.derive(from: .path(master.path), to: .newFile(out.path))
            #expect(try Fixtures.run("vipsheader", ["-f", "format", out.path]).contains(format), "\(name)")
            #expect(
                try Fixtures.run("vipsheader", ["-f", "bands", out.path]).trimmingCharacters(in: .whitespacesAndNewlines)
                    == bands, "\(name)")
        }
    }

    /// Transparent pixels' colours must not bleed into opaque neighbours: a half-transparent
    /// stripe of pure red beside fully transparent green stays red, not brown.
    @Test func alphaIsPremultipliedWhileResizing() throws {
        let folder = try Fixtures.folder()
        let script = """
            import struct, sys, zlib
            w, h = 16, 4
            rows = b""
            for y in range(h):
                row = b"".join(bytes([255, 0, 0, 255]) if x < 8 else bytes([0, 255, 0, 0]) for x in range(w))
                rows += b"\\x00" + row
            def chunk(k, d): return struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
            open(sys.argv[1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
            """
        let master = folder.appendingPathComponent("edge@2x.png")
        try Fixtures.run(Fixtures.python, ["-c", script, master.path])
        let out = folder.appendingPathComponent("edge.png")
        _ = try deriver.derive(from: .path(master.path), to: .newFile(out.path))
        // Column 3 of 8 touches the edge: Lanczos mixes in the transparent side, but only its alpha.
        let pixel = try Fixtures.vips("getpoint", out.path, "3", "1").split(whereSeparator: \.isWhitespace).compactMap {
            Double($0).map(Int.init)
        }
        #expect(pixel.count == 4)
        #expect(pixel[0] >= 250 && pixel[1] <= 5, "colour bled: \(pixel)")
    }

    @Test func anOddSizedMasterIsAnErrorAndWritesNothing() throws {
        let folder = try Fixtures.folder()
        let master = try Fixtures.png(folder.appendingPathComponent("odd@2x.png"), width: 301, height: 200)
        let out = folder.appendingPathComponent("odd.png")
        #expect(throws: ImagingError.oddSize(path: master.path, width: 301, height: 200)) {
            try deriver.derive(from: .path(master.path), to: .newFile(out.path))
        }
        let tall = try Fixtures.png(folder.appendingPathComponent("tall@2x.png"), width: 300, height: 201)
        #expect(throws: ImagingError.oddSize(path: tall.path, width: 300, height: 201)) {
            try deriver.derive(from: .path(tall.path), to: .newFile(out.path))
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A master whose EXIF says "rotate 90°" is shown upright by every viewer; the derived image
    /// is written upright (and without the tag), so both sizes show the same way.
    @Test func appliesTheEXIFOrientation() throws {
        let folder = try Fixtures.folder()
        let plain = try Fixtures.jpeg(folder.appendingPathComponent("plain.jpg"), width: 200, height: 120)
        let rotated = folder.appendingPathComponent("rotated@2x.jpg")
        try JPEGMarkers.insertEXIFOrientation(6, from: plain, to: rotated)
        #expect(try Fixtures.run("vipsheader", ["-f", "orientation", rotated.path]).hasPrefix("6"))
        let out = folder.appendingPathComponent("rotated.jpg")
        let derived = try deriver.derive(from: .path(rotated.path), to: .newFile(out.path))
        #expect((derived.width, derived.height) == (60, 100))
        #expect(try Fixtures.size(out) == (60, 100))
        let orientation = try Shell.run("vipsheader", ["-f", "orientation", out.path])
        #expect(orientation.status != 0 || orientation.stdout.hasPrefix("1"))
    }
}
