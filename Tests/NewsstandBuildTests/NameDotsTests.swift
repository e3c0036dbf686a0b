import Foundation
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandBuild

/// Names with more than one dot: a versioned build names a bundle `f-1.<tag>.zip` and a cover
/// `cover.v2.<tag>.png`, and every later rule (the `@2x` name, the index's name, the tag's
/// place) must work on the last dot. A rule that split at the first one passes every fixture
/// whose names have a single dot.
@Suite struct NameDotsTests {
    @Test(arguments: [
        ("f-1.zip", "f-1.4acee772.zip"), ("cover.v2.png", "cover.v2.4acee772.png"),
        ("book.v1.2.hpub", "book.v1.2.4acee772.hpub"), ("README", "README.4acee772"),
    ])
    func theTagGoesBeforeTheLastExtension(normal: String, versioned: String) {
        #expect(VersionedNames.name(normal, tag: "4acee772") == versioned)
    }

    /// A versioned build of an issue whose cover is `cover.v2.png`: each output is where the
    /// catalog says, in both sizes, under the names the rules give.
    @Test func aVersionedBuildNamesEveryOutputByItsLastDot() throws {
        let fixture = try MagazineFixture()
        let plist = fixture.url("issues/f-1/issue.plist")
        let text = try String(contentsOf: plist, encoding: .utf8)
        try fixture.write(
            "issues/f-1/issue.plist",
            text.replacingOccurrences(of: "<string>cover.png</string>", with: "<string>cover.v2.png</string>"))
        try fixture.remove("issues/f-1/assets/cover.png")
        try fixture.remove("issues/f-1/assets/cover@2x.png")
        try fixture.image("f-1", "cover.v2.png", width: 10, height: 20)
        let output = try Shell.temporaryFolder("versioned")
        defer { try? FileManager.default.removeItem(at: output) }
        let (magazine, plans) = try fixture.plans()
        let report = try MagazineBuilder(magazine: magazine, options: BuildOptions(output: output, jobs: 1, versioned: true))
            .build(plans)
        #expect(report.built == ["f-1"])

        let catalog = try Catalog.decode(Data(contentsOf: output.appendingPathComponent("issues.plist")))
        let entry = try #require(catalog.entries.first)
        let bundle = try #require(entry.content.split(separator: "/").last.map(String.init))
        let cover = try #require(entry.cover.split(separator: "/").last.map(String.init))
        #expect(bundle.wholeMatch(of: /f-1\.[0-9a-f]{8}\.zip/) != nil, "\(bundle)")
        #expect(cover.wholeMatch(of: /cover\.v2\.[0-9a-f]{8}\.png/) != nil, "\(cover)")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("f-1").path))
        for name in [bundle, RetinaName.of(bundle), cover, RetinaName.of(cover)] {
            #expect(files.contains(name), "\(name) is not among \(files.sorted())")
        }
        #expect(RetinaName.of(bundle) == bundle.dropLast(4) + "@2x.zip")
        #expect(RetinaName.of(cover) == cover.dropLast(4) + "@2x.png")
        #expect(RetinaName.normalName(of: RetinaName.of(bundle)) == bundle)
        if let index = entry.contentIndex?.split(separator: "/").last.map(String.init) {
            #expect(index == bundle.dropLast(4) + ".index.json")
            #expect(files.contains(index) && files.contains(RetinaName.of(index)))
        }
    }
}
