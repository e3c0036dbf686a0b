import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import Testing

/// Images whose header gives a size no decoder accepts: 0×0, or a PNG side above 2³¹−1.
@Suite struct ImageBoundsTests {
    let assets = "issues/f-1/assets"

    private func problems(_ normal: Data, _ retina: Data, named name: String = "1-0.png") throws -> [Diagnostic] {
        let fixture = try MagazineFixture()
        if name != "1-0.png" {
            try fixture.remove("\(assets)/1-0.png")
            try fixture.remove("\(assets)/1-0@2x.png")
            try fixture.write(
                "issues/f-1/pages.plist", MagazineFixture.defaultPages.replacingOccurrences(of: "1-0.png", with: name))
        }
        try fixture.write("\(assets)/\(name)", normal)
        try fixture.write("\(assets)/\(RetinaName.of(name))", retina)
        return fixture.validate().with(.imageUnreadable)
    }

    @Test func aPNGOfZeroByZeroIsAnError() throws {
        let found = try problems(MagazineFixture.png(width: 0, height: 0), MagazineFixture.png(width: 0, height: 0))
        #expect(found.map(\.severity) == [.error, .error])
        #expect(
            found.first?.message
                == "cannot read the size of '1-0.png': a PNG is 1 to 2,147,483,647 pixels wide and high; its header says 0×0")
        #expect(
            found.first?.location
                == SourceLocation(file: "issues/f-1/pages.plist", line: MagazineFixture.defaultPagesLine(of: "1-0")))
    }

    @Test func aPNGWiderThanThePNGLimitIsAnError() throws {
        let found = try problems(
            MagazineFixture.png(width: 1 << 31, height: 10), MagazineFixture.png(width: 10, height: 0xFFFF_FFFF))
        #expect(
            found.map(\.message) == [
                "cannot read the size of '1-0.png': a PNG is 1 to 2,147,483,647 pixels wide and high; its header says 2147483648×10",
                "cannot read the size of '1-0@2x.png': a PNG is 1 to 2,147,483,647 pixels wide and high; its header says 10×4294967295",
            ])
    }

    @Test func aPNGAtThePNGLimitIsFine() throws {
        let side = (1 << 31) - 1
        let found = try problems(MagazineFixture.png(width: side / 2, height: 1), MagazineFixture.png(width: side - 1, height: 2))
        #expect(found.isEmpty)
    }

    @Test func aGIFOrJPEGOfZeroSizeIsAnError() throws {
        var gif = Data("GIF89a".utf8)
        gif.append(contentsOf: [0, 0, 0, 0, 0, 0, 0] + Array(repeating: 0, count: 20))
        let gifProblems = try problems(gif, gif, named: "1-0.gif")
        #expect(gifProblems.first?.message == "cannot read the size of '1-0.gif': a GIF of 0×0 pixels shows nothing")
        let jpegProblems = try problems(
            AssetValidationTests.jpeg(width: 300, height: 0), AssetValidationTests.jpeg(width: 600, height: 0), named: "1-0.jpg")
        #expect(jpegProblems.first?.message == "cannot read the size of '1-0.jpg': a JPEG of 300×0 pixels shows nothing")
        #expect(jpegProblems.count == 2)
    }
}
