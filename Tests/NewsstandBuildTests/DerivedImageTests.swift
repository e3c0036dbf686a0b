import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandImaging
import NewsstandTestSupport
import Testing

/// The build's side of one master per image (`DeriveNormalSize`) and of `--optimize`: what
/// validation says, what the bundles hold, what the image cache keeps, and how it treats a
/// cached file that lies.
@Suite struct DerivedImageTests {
    /// The fixture's issue with real images: `1-0` and the cover as @2x masters only, the rest
    /// in both sizes.
    func mastersOnly() throws -> MagazineFixture {
        let fixture = try MagazineFixture()
        for (index, name) in ["cover.png", "1-0.png", "2-0.png", "2-1.png", "2-1t.png"].enumerated() {
            try fixture.write("issues/f-1/assets/\(RetinaName.of(name))", try RealPNG.data(width: 40, height: 24, seed: index))
            if ["cover.png", "1-0.png"].contains(name) {
                try fixture.remove("issues/f-1/assets/\(name)")
            } else {
                try fixture.write("issues/f-1/assets/\(name)", try RealPNG.data(width: 20, height: 12, seed: index))
            }
        }
        return fixture
    }

    func setDerive(_ fixture: MagazineFixture, _ value: String) throws {
        try fixture.write(
            "magazine.plist",
            MagazineFixture.plist(
                """
                <dict>
                    <key>Title</key>
                    <string>Fixture</string>
                    <key>BaseURL</key>
                    <string>https://example.com/mag/</string>
                    <key>DeriveNormalSize</key>
                    \(value)
                </dict>
                """))
    }

    func build(_ fixture: MagazineFixture, into output: URL, force: Bool = false, optimize: Bool = false) throws
        -> BuildReport
    {
        let (magazine, plans) = try fixture.plans()
        let options = BuildOptions(output: output, jobs: 2, force: force, versioned: false, optimize: optimize)
        return try MagazineBuilder(magazine: magazine, options: options).build(plans)
    }

    func pngSize(_ data: Data) -> (Int, Int) {
        let b = [UInt8](data.prefix(24))
        guard b.count == 24 else { return (0, 0) }
        let read = { (o: Int) in b[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (read(16), read(20))
    }

    func cacheFiles(_ output: URL) throws -> [URL] {
        let folder = output.appendingPathComponent("f-1/.newsstand/images")
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).sorted {
            $0.path < $1.path
        }
    }

    // MARK: validation

    @Test func aMasterAloneValidatesAndIsPlannedForDerivation() throws {
        let fixture = try mastersOnly()
        #expect(fixture.validate().filter { $0.severity == .error } == [])
        let (_, plans) = try fixture.plans()
        #expect(plans.first?.derived == ["cover.png", "1-0.png"])
    }

    @Test func derivationOffKeepsAMissingNormalSizeAnError() throws {
        let fixture = try mastersOnly()
        try setDerive(fixture, "<false/>")
        let missing = fixture.validate().with(.assetMissing)
        #expect(
            missing.map(\.message).sorted() == [
                "image '1-0.png' is not in issues/f-1/assets/", "image 'cover.png' is not in issues/f-1/assets/",
            ])
    }

    @Test func deriveNormalSizeOfTheWrongTypeIsReported() throws {
        let fixture = try MagazineFixture()
        try setDerive(fixture, "<string>yes</string>")
        let found = fixture.validate().with(.magazineDeriveNormalSize)
        #expect(found.map(\.message) == ["DeriveNormalSize, when given, must be a boolean (<true/> or <false/>); found string"])
        #expect(found.first?.location == SourceLocation(file: "magazine.plist", line: 10))
    }

    @Test func anOddMasterHasItsOwnCode() throws {
        let fixture = try mastersOnly()
        try fixture.write("issues/f-1/assets/1-0@2x.png", try RealPNG.data(width: 41, height: 24))
        let odd = fixture.validate().with(.masterOddSize)
        #expect(
            odd.map(\.message) == [
                "@2x master '1-0@2x.png' is 41×24: an odd width or height cannot be halved exactly, so '1-0.png' cannot be derived; make the master 42×24 or give the normal-size file too"
            ])
        #expect(odd.first?.severity == .error)
    }

    @Test func aMasterThatIsNotPNGOrJPEGCannotBeDerived() throws {
        let fixture = try mastersOnly()
        try fixture.write("issues/f-1/assets/1-0@2x.png", Data("GIF89a\u{10}\0\u{10}\0".utf8))
        let found = fixture.validate().filter { $0.code == .imageUnreadable && $0.message.contains("cannot derive") }
        #expect(found.count == 1)
        #expect(found.first?.severity == .error)
    }

    @Test func bothSizesGivenStillFollowTheSizeRule() throws {
        let fixture = try mastersOnly()
        try fixture.write("issues/f-1/assets/1-0.png", try RealPNG.data(width: 21, height: 12))
        #expect(fixture.validate().with(.retinaWrongSize).count == 1)
        try fixture.write("issues/f-1/assets/1-0.png", try RealPNG.data(width: 20, height: 12))
        #expect(try fixture.plans().1.first?.derived == ["cover.png"])
    }

    // MARK: build

    @Test func twoCleanBuildsGiveTheSameBytes() throws {
        let fixture = try mastersOnly()
        let a = try Shell.temporaryFolder()
        let b = try Shell.temporaryFolder()
        _ = try build(fixture, into: a)
        _ = try build(fixture, into: b)
        #expect(FolderSnapshot(a).entries == FolderSnapshot(b).entries)
    }

    @Test func aChangedMasterIsDerivedAgainAndItsOldResultRemoved() throws {
        let fixture = try mastersOnly()
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let before = try cacheFiles(output)
        try fixture.write("issues/f-1/assets/1-0@2x.png", try RealPNG.data(width: 40, height: 24, seed: 99))
        let report = try build(fixture, into: output)
        #expect(report.images.derived == 1)
        #expect(report.images.derivedFromCache == 1)
        let after = try cacheFiles(output)
        #expect(after.count == 2)
        #expect(Set(before).intersection(after).count == 1)
    }

    @Test func anIssueThatNoLongerDerivesLosesItsCacheAndNothingElse() throws {
        let fixture = try mastersOnly()
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        #expect(try cacheFiles(output).count == 2)
        let mine = output.appendingPathComponent("f-1/.newsstand/images/mine.txt")
        try Data("not newsstand's".utf8).write(to: mine)
        try fixture.write("issues/f-1/assets/1-0.png", try RealPNG.data(width: 20, height: 12))
        try fixture.write("issues/f-1/assets/cover.png", try RealPNG.data(width: 20, height: 12))
        let report = try build(fixture, into: output)
        #expect(report.built == ["f-1"])
        #expect(report.images == ImageWorkCounts())
        #expect(try cacheFiles(output) == [mine])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("f-1/.newsstand/images.json").path))
    }

    /// A cached file changed in place (same size), truncated, or swapped for a link: never
    /// used; derived again, and the bundles are a clean build's.
    @Test(arguments: ["flip", "truncate", "link"])
    func aCachedImageThatLiesIsNotUsed(_ lie: String) throws {
        let fixture = try mastersOnly()
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let victim = try cacheFiles(output)[0]
        var bytes = try Data(contentsOf: victim)
        let outside = try Shell.temporaryFolder().appendingPathComponent("elsewhere.png")
        try bytes.write(to: outside)
        switch lie {
        case "flip":
            bytes[bytes.count - 20] ^= 0xFF
            try bytes.write(to: victim)
        case "truncate":
            try bytes.prefix(bytes.count / 2).write(to: victim)
        default:
            try FileManager.default.removeItem(at: victim)
            try FileManager.default.createSymbolicLink(at: victim, withDestinationURL: outside)
        }
        let report = try build(fixture, into: output, force: true)
        #expect(report.images.derived == 1)
        #expect(report.images.derivedFromCache == 1)
        let clean = try Shell.temporaryFolder()
        _ = try build(fixture, into: clean)
        for name in ["f-1/f-1.zip", "f-1/f-1@2x.zip", "f-1/cover.png"] {
            #expect(
                try Data(contentsOf: output.appendingPathComponent(name)) == Data(contentsOf: clean.appendingPathComponent(name)))
        }
        // The file outside the output is untouched.
        #expect(try Data(contentsOf: outside).count > 0)
    }

    @Test func aMasterLibvipsCannotDecodeFailsTheBuildClearly() throws {
        let fixture = try mastersOnly()
        // A valid header, then garbage instead of pixels: validation reads headers only.
        var broken = try RealPNG.data(width: 40, height: 24).prefix(33)
        broken.append(Data(repeating: 0x41, count: 64))
        try fixture.write("issues/f-1/assets/1-0@2x.png", broken)
        let output = try Shell.temporaryFolder()
        #expect {
            try build(fixture, into: output)
        } throws: { error in
            guard case .image(let issue, let path, .unreadable) = error as? BuildError else { return false }
            return issue == "f-1" && path.hasSuffix("issues/f-1/assets/1-0@2x.png")
        }
    }

    // MARK: --optimize

    @Test func anOptimizedBuildIsNotTakenAsUpToDateForAPlainOneOrTheOtherWay() throws {
        let fixture = try mastersOnly()
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        #expect(try build(fixture, into: output, optimize: true).built == ["f-1"])
        #expect(try build(fixture, into: output, optimize: true).upToDate == ["f-1"])
        #expect(try build(fixture, into: output).built == ["f-1"])
    }
}
