import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import Testing

/// The asset rules: presence, letter case, @2x twins and sizes, content, unreferenced files, names.
@Suite struct AssetValidationTests {
    let assets = "issues/f-1/assets"

    @Test func missingImageIsReportedAtEveryReference() throws {
        let fixture = try MagazineFixture()
        // Both sizes: a @2x master alone is derived from (DerivedImageTests).
        try fixture.remove("\(assets)/1-0.png")
        try fixture.remove("\(assets)/1-0@2x.png")
        let found = fixture.validate()
        let d = try #require(found.with(.assetMissing).first)
        #expect(
            d.location
                == SourceLocation(file: "issues/f-1/pages.plist", line: fixture.line(of: "1-0", in: "issues/f-1/pages.plist")))
        #expect(d.message.contains("'1-0.png'"))
    }

    @Test func nameDifferingOnlyInCase() throws {
        let fixture = try MagazineFixture()
        try fixture.remove("\(assets)/1-0.png")
        try fixture.remove("\(assets)/1-0@2x.png")
        try fixture.image("f-1", "1-0.PNG", width: 10, height: 20)
        let d = try #require(fixture.validate().with(.assetCaseMismatch).first)
        #expect(d.location?.line == fixture.line(of: "1-0", in: "issues/f-1/pages.plist"))
        #expect(d.message.contains("'1-0.PNG'"))
    }

    /// The other way round: the reference has the capitals, the file has none.
    @Test func referenceDifferingOnlyInCase() throws {
        let fixture = try MagazineFixture()
        let pages = MagazineFixture.defaultPages.replacingOccurrences(
            of: "<string>1-0.png</string>", with: "<string>1-0.Png</string>")
        try fixture.write("issues/f-1/pages.plist", pages)
        let found = fixture.validate()
        let d = try #require(found.with(.assetCaseMismatch).first)
        #expect(d.location?.line == fixture.line(of: "1-0", in: "issues/f-1/pages.plist"))
        #expect(d.message.contains("'1-0.Png' is not in"))
        #expect(d.message.contains("but '1-0.png' is"))
        #expect(found.with(.assetMissing).isEmpty)
    }

    @Test func missingRetinaTwinIsAnError() throws {
        let fixture = try MagazineFixture()
        try fixture.remove("\(assets)/2-0@2x.png")
        let d = try #require(fixture.validate().with(.retinaMissing).first)
        #expect(d.severity == .error)
        #expect(d.location?.line == fixture.line(of: "2-0", in: "issues/f-1/pages.plist"))
        #expect(d.message.contains("'2-0@2x.png'"))
    }

    @Test func retinaOfTheWrongSize() throws {
        let fixture = try MagazineFixture()
        try fixture.write("\(assets)/2-1@2x.png", MagazineFixture.png(width: 30, height: 40))
        let d = try #require(fixture.validate().with(.retinaWrongSize).first)
        #expect(d.location?.line == fixture.line(of: "2-1", in: "issues/f-1/pages.plist"))
        #expect(d.message.contains("30×40"))
        #expect(d.message.contains("20×40"))
    }

    @Test func jpegSizesAreReadFromTheFrameHeader() throws {
        let fixture = try MagazineFixture()
        try fixture.remove("\(assets)/1-0.png")
        try fixture.remove("\(assets)/1-0@2x.png")
        try fixture.write(
            "issues/f-1/pages.plist", MagazineFixture.defaultPages.replacingOccurrences(of: "1-0.png", with: "1-0.jpg"))
        try fixture.write("\(assets)/1-0.jpg", Self.jpeg(width: 300, height: 200))
        try fixture.write("\(assets)/1-0@2x.jpg", Self.jpeg(width: 600, height: 401))
        let found = fixture.validate()
        let d = try #require(found.with(.retinaWrongSize).first)
        #expect(d.message.contains("600×401"))
        #expect(d.message.contains("300×200"))
        #expect(found.with(.contentMismatch).isEmpty)
    }

    @Test func contentThatDoesNotMatchItsExtension() throws {
        let fixture = try MagazineFixture()
        try fixture.write("\(assets)/1-0.png", Self.jpeg(width: 10, height: 20))
        let d = try #require(fixture.validate().with(.contentMismatch).first)
        #expect(d.message.contains("'1-0.png' is JPEG data"))
    }

    @Test func unreferencedAssetsAndUnportableNamesAreWarnings() throws {
        let fixture = try MagazineFixture()
        try fixture.write("\(assets)/left over.png", MagazineFixture.png(width: 1, height: 1))
        try fixture.write("\(assets)/.DS_Store", Data("x".utf8))
        let found = fixture.validate()
        #expect(found.with(.assetUnreferenced).map(\.location?.file) == ["\(assets)/left over.png"])
        #expect(found.with(.assetNameUnportable).map(\.location?.file) == ["\(assets)/left over.png"])
        #expect(!found.hasErrors)
    }

    @Test func referenceThatIsAPathIsRejected() throws {
        let fixture = try MagazineFixture()
        try fixture.write(
            "issues/f-1/pages.plist", MagazineFixture.defaultPages.replacingOccurrences(of: "1-0.png", with: "../1-0.png"))
        #expect(fixture.validate().with(.assetNameInvalid).map(\.location?.line) == [MagazineFixture.defaultPagesLine(of: "1-0")])
    }

    /// A minimal JPEG: SOI, an APP0 segment, then a SOF0 frame header with the size.
    static func jpeg(width: Int, height: Int) -> Data {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        bytes += [
            0xFF, 0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF),
            3,
        ]
        bytes += [1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1, 0xFF, 0xD9]
        return Data(bytes)
    }
}
