import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import Testing

/// Names that are the same text in two Unicode normalisation forms: `é` composed (NFC, `c3 a9`)
/// and decomposed (NFD, `65 cc 81`). Linux keeps them as two files, Apple file systems as one,
/// and Swift's `String` compares them equal, so without a rule of their own two different
/// images collapsed into one bundle entry holding the other's bytes.
@Suite struct UnicodeNameTests {
    let assets = "issues/f-1/assets"
    static let composed = "\u{E9}"
    static let decomposed = "e\u{301}"

    /// The default pages, with the first two base images renamed.
    static func pages(first: String, second: String) -> String {
        MagazineFixture.defaultPages
            .replacingOccurrences(of: "<string>1-0.png</string>", with: "<string>\(first)</string>")
            .replacingOccurrences(of: "<string>2-0.png</string>", with: "<string>\(second)</string>")
    }

    /// The names in `folder` as the file system spells them (bytes, not Swift's equality).
    func spellings(in folder: URL) throws -> Set<[UInt8]> {
        Set(try FileManager.default.contentsOfDirectory(atPath: folder.path).map { Array($0.utf8) })
    }

    @Test func twoAssetsThatDifferOnlyInNormalisationAreAnError() throws {
        let fixture = try MagazineFixture()
        let nfc = "\(Self.composed).png"
        let nfd = "\(Self.decomposed).png"
        try fixture.image("f-1", nfc, width: 10, height: 20)
        try fixture.write("\(assets)/\(nfd)", MagazineFixture.png(width: 10, height: 20, seed: "other"))
        try fixture.write("\(assets)/\(Self.decomposed)@2x.png", MagazineFixture.png(width: 20, height: 40, seed: "other@2x"))
        for name in ["1-0.png", "1-0@2x.png", "2-0.png", "2-0@2x.png"] { try fixture.remove("\(assets)/\(name)") }
        try fixture.write("issues/f-1/pages.plist", Self.pages(first: nfc, second: nfd))
        // Four files on disk: the fixture really has both spellings.
        let onDisk = try spellings(in: fixture.url(assets))
        #expect(onDisk.contains(Array(nfc.utf8)) && onDisk.contains(Array(nfd.utf8)))

        let found = fixture.validate()
        let collisions = found.with(.assetNameNormalization)
        // One for the images, one for their @2x twins; each at the folder, naming both spellings.
        #expect(collisions.count == 2, "\(found)")
        let first = try #require(collisions.first { $0.location?.file == "\(assets)/\(nfc)" } ?? collisions.first)
        #expect(first.severity == .error)
        #expect(first.message.contains("e\\u{301}.png"), "\(first.message)")
        #expect(first.message.contains("\\u{e9}.png"), "\(first.message)")
        #expect(first.message.contains("one file on Apple"), "\(first.message)")
        #expect(found.hasErrors)
        #expect(throws: FixtureError.self) { try fixture.plans() }
    }

    @Test func aReferenceSpelledInAnotherNormalisationIsAnError() throws {
        let fixture = try MagazineFixture()
        let nfc = "\(Self.composed).png"
        try fixture.image("f-1", nfc, width: 10, height: 20)
        try fixture.remove("\(assets)/1-0.png")
        try fixture.remove("\(assets)/1-0@2x.png")
        // The page names the decomposed form; only the composed one is in assets/.
        try fixture.write("issues/f-1/pages.plist", Self.pages(first: "\(Self.decomposed).png", second: "2-0.png"))
        let found = fixture.validate()
        let d = try #require(found.with(.assetNameNormalization).first, "\(found)")
        #expect(d.location == SourceLocation(file: "issues/f-1/pages.plist", line: MagazineFixture.defaultPagesLine(of: "1-0")))
        #expect(d.message.contains("e\\u{301}.png"), "\(d.message)")
        #expect(d.message.contains("\\u{e9}.png"), "\(d.message)")
        #expect(found.with(.assetMissing).isEmpty && found.with(.fileUnreadable).isEmpty, "\(found)")
        #expect(!found.with(.assetUnreferenced).contains { $0.location?.file == "\(assets)/\(nfc)" })
    }

    /// The `@2x` twin on disk in the other form than the normal image and its reference.
    @Test func aRetinaTwinSpelledInAnotherNormalisationIsAnError() throws {
        let fixture = try MagazineFixture()
        try fixture.write("\(assets)/\(Self.composed).png", MagazineFixture.png(width: 10, height: 20))
        try fixture.write("\(assets)/\(Self.decomposed)@2x.png", MagazineFixture.png(width: 20, height: 40))
        try fixture.write("issues/f-1/pages.plist", Self.pages(first: "\(Self.composed).png", second: "2-0.png"))
        try fixture.remove("\(assets)/1-0.png")
        try fixture.remove("\(assets)/1-0@2x.png")
        let found = fixture.validate()
        let d = try #require(found.with(.assetNameNormalization).first, "\(found)")
        #expect(d.location?.line == MagazineFixture.defaultPagesLine(of: "1-0"))
        #expect(d.message.contains("@2x"), "\(d.message)")
        #expect(found.with(.retinaMissing).isEmpty && found.with(.fileUnreadable).isEmpty, "\(found)")
    }

    /// Same text, same bytes: nothing to report (the rule is about spellings, not about non-ASCII).
    @Test func oneSpellingUsedThroughoutIsFine() throws {
        let fixture = try MagazineFixture()
        let nfd = "\(Self.decomposed).png"
        try fixture.image("f-1", nfd, width: 10, height: 20)
        try fixture.remove("\(assets)/1-0.png")
        try fixture.remove("\(assets)/1-0@2x.png")
        try fixture.write("issues/f-1/pages.plist", Self.pages(first: nfd, second: "2-0.png"))
        let found = fixture.validate()
        #expect(found.with(.assetNameNormalization).isEmpty)
        #expect(!found.hasErrors, "\(found)")
        let (_, plans) = try fixture.plans()
        #expect(plans.first?.assets.contains { Array($0.name.utf8) == Array(nfd.utf8) } == true)
    }

    @Test func issueFoldersThatDifferOnlyInNormalisationAreDuplicates() throws {
        let fixture = try MagazineFixture(issues: ["f-\(Self.composed)", "f-\(Self.decomposed)"])
        let found = fixture.validate()
        let d = try #require(found.with(.issueNameDuplicate).first, "\(found)")
        #expect(d.message.contains("Unicode normalisation"), "\(d.message)")
        #expect(!d.message.contains("letter case"), "\(d.message)")
    }
}
