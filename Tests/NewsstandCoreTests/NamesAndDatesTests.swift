import Foundation
import NewsstandCore
import Testing

@Suite struct RetinaNameTests {
    @Test(arguments: [
        ("f2.png", "f2@2x.png"), ("f2.zip", "f2@2x.zip"), ("archive.tar.gz", "archive.tar@2x.gz"), ("README", "README@2x"),
        ("http://fo-nt.net/f/f2.png", "http://fo-nt.net/f/f2@2x.png"),
        ("https://cdn.example.com/a.b/c?x=1.2", "https://cdn.example.com/a.b/c@2x?x=1.2"),
        ("https://example.com/v1.2/cover.png#top", "https://example.com/v1.2/cover@2x.png#top"),
        // Names with more than one dot: content-named bundles and indexes, versioned assets.
        ("a-1.4acee772.zip", "a-1.4acee772@2x.zip"), ("cover.v2.png", "cover.v2@2x.png"),
        ("a-1.4acee772.index.json", "a-1.4acee772.index@2x.json"),
        ("https://cdn.example.com/a-1/a-1.4acee772.zip?sig=a.b", "https://cdn.example.com/a-1/a-1.4acee772@2x.zip?sig=a.b"),
    ])
    func insertsBeforeTheExtension(name: String, retina: String) {
        #expect(RetinaName.of(name) == retina)
    }

    @Test func recognisesRetinaNames() {
        #expect(RetinaName.normalName(of: "1-0@2x.png") == "1-0.png")
        #expect(RetinaName.normalName(of: "1-0.png") == nil)
        #expect(RetinaName.isRetina("a@2x"))
        // "@2x" alone is no image's @2x variant: there is no normal name to pair it with.
        #expect(RetinaName.normalName(of: "@2x.png") == nil)
        #expect(!RetinaName.isRetina("@2x"))
    }

    /// The `@2x` is looked for before the last extension, not the first: a content-named
    /// bundle or a versioned asset has dots before it.
    @Test(arguments: [
        ("a-1.4acee772@2x.zip", "a-1.4acee772.zip"), ("cover.v2@2x.png", "cover.v2.png"),
        ("a-1.4acee772.index@2x.json", "a-1.4acee772.index.json"),
    ])
    func recognisesRetinaNamesWithMoreThanOneDot(retina: String, normal: String) {
        #expect(RetinaName.normalName(of: retina) == normal)
        #expect(RetinaName.isRetina(retina))
        #expect(RetinaName.of(normal) == retina)
        #expect(!RetinaName.isRetina(normal))
    }
}

@Suite struct IssueNameTests {
    @Test func safeNames() {
        for name in ["f-2", "2013_11", "a.b"] { #expect(IssueName.isSafe(name)) }
        for name in ["", ".hidden", "../x", "a/b", "a b", "лето", "a:b"] { #expect(!IssueName.isSafe(name)) }
    }
}

@Suite struct PlistDateTests {
    @Test func roundTrips() throws {
        let date = try #require(PlistDate.parse("2013-11-28T08:00:00Z"))
        #expect(date.timeIntervalSince1970 == 1_385_625_600)
        #expect(PlistDate.format(date) == "2013-11-28T08:00:00Z")
    }

    @Test func rejectsOtherFormats() {
        for text in ["2013-11-28", "28.11.2013", "2013-02-30T00:00:00Z", "2013-11-28T25:00:00Z", "2013-11-28 08:00:00Z"] {
            #expect(PlistDate.parse(text) == nil, "\(text)")
        }
    }
}
