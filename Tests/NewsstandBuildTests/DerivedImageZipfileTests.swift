import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandImaging
import NewsstandTestSupport
import Testing

/// Derived and optimised images as they are packed, read from the bundles by Python's zipfile
/// (not by our reader). The rest of derivation and the image cache is in `DerivedImageTests`, in
/// the fast tier.
@Suite(.tags(.needsTools)) struct DerivedImageZipfileTests {
    let images = DerivedImageTests()

    /// An entry of a zip, read by Python's zipfile (not by our reader).
    private func entry(_ zip: URL, _ name: String) throws -> Data {
        let result = try Shell.python(
            "import sys,zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).hex())", [zip.path, name])
        #expect(result.status == 0, "\(result.stderr)")
        var bytes: [UInt8] = []
        var high: UInt8?
        for c in result.stdout.utf8 {
            let v = c <= 0x39 ? c - 0x30 : c - 0x57
            if let h = high {
                bytes.append(h << 4 | v)
                high = nil
            } else {
                high = v
            }
        }
        return Data(bytes)
    }

    @Test func theNormalBundleHoldsTheDerivedHalfAndARebuildTakesItFromTheCache() throws {
        let fixture = try images.mastersOnly()
        let output = try Shell.temporaryFolder()
        let first = try images.build(fixture, into: output)
        #expect(first.images.derived == 2)
        #expect(first.images.derivedFromCache == 0)
        let derived = try entry(output.appendingPathComponent("f-1/f-1.zip"), "1-0.png")
        #expect(images.pngSize(derived) == (20, 12))
        #expect(images.pngSize(try Data(contentsOf: output.appendingPathComponent("f-1/cover.png"))) == (20, 12))
        // The derived image is the engine's output for that master, byte for byte.
        let master = fixture.url("issues/f-1/assets/1-0@2x.png")
        let reference = try Shell.temporaryFolder().appendingPathComponent("1-0.png")
        _ = try NormalSizeDeriver().derive(from: .path(master.path), to: .newFile(reference.path))
        #expect(derived == (try Data(contentsOf: reference)))

        let again = try images.build(fixture, into: output, force: true)
        #expect(again.images.derived == 0)
        #expect(again.images.derivedFromCache == 2)
        #expect(try images.cacheFiles(output).count == 2)
    }

    @Test func optimizeShrinksAMetadataHeavyPNGWithTheSamePixelsAndCachesIt() throws {
        let fixture = try images.mastersOnly()
        try fixture.write("issues/f-1/assets/2-0@2x.png", try RealPNG.data(width: 40, height: 24, metadata: 20_000, seed: 5))
        let output = try Shell.temporaryFolder()
        let report = try images.build(fixture, into: output, optimize: true)
        #expect(report.images.optimized == 8)  // four images in two sizes
        #expect(report.images.bytesSaved > 20_000)
        let packed = try entry(output.appendingPathComponent("f-1/f-1@2x.zip"), "2-0@2x.png")
        let source = fixture.url("issues/f-1/assets/2-0@2x.png")
        #expect(packed.count < (try Data(contentsOf: source)).count - 20_000)
        let copy = try Shell.temporaryFolder().appendingPathComponent("packed.png")
        try packed.write(to: copy)
        #expect(try PixelComparer().compare(.path(source.path), .path(copy.path)) == .identical)

        let again = try images.build(fixture, into: output, force: true, optimize: true)
        #expect(again.images.optimized == 0)
        #expect(again.images.optimizedFromCache == 8)
        #expect(again.images.bytesSaved == report.images.bytesSaved)

        let other = try Shell.temporaryFolder()
        _ = try images.build(fixture, into: other, optimize: true)
        for name in ["f-1/f-1.zip", "f-1/f-1@2x.zip"] {
            #expect(
                try Data(contentsOf: output.appendingPathComponent(name)) == Data(contentsOf: other.appendingPathComponent(name)))
        }
    }
}
