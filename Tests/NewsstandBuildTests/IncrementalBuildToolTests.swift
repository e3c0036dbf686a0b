import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// The incremental build checked with tools we did not write: `touch -r` sets a time back to
/// the nanosecond, `unzip` reads the rebuilt bundle, `xxhsum` recomputes the recorded hashes.
/// Everything else about incremental builds is in `IncrementalBuildTests`, in the fast tier.
@Suite(.tags(.needsTools)) struct IncrementalBuildToolTests {
    let incremental = IncrementalBuildTests()

    /// Size and modification time alone are what make and rsync trust; a tool that restores
    /// the time after writing (`cp -p`, `touch -r`) defeats them. The record keeps `ctime`
    /// too, which no program can set back, so such a change is caught by the hash.
    @Test func newBytesWithTheSameSizeAndModificationTimeAreCaught() throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let output = try Shell.temporaryFolder()
        _ = try incremental.build(fixture, into: output)
        let asset = fixture.url("issues/f-1/assets/2-1@2x.png")
        let before = try Data(contentsOf: asset)
        let status = try FileStatus.of(asset.path)
        // `touch -r` copies the time to the nanosecond (Foundation's Date would round it).
        let reference = try Shell.temporaryFolder().appendingPathComponent("time")
        try Shell.run("touch", ["-r", asset.path, reference.path])
        var after = before
        after[after.count - 1] ^= 0xFF
        try after.write(to: asset)
        try Shell.run("touch", ["-r", reference.path, asset.path])
        let now = try FileStatus.of(asset.path)
        #expect(now.size == status.size && now.modified == status.modified && now.changed != status.changed)

        let run = try incremental.build(fixture, into: output)
        #expect(run.outcomes == ["f-1": .changed])
        #expect(run.report.built == ["f-1"])
        let unpacked = try Shell.temporaryFolder()
        let manifest = try #require(BuildManifest.read(in: output.appendingPathComponent("f-1")))
        try Shell.run(
            "unzip", ["-q", output.appendingPathComponent("f-1/\(manifest.retinaBundle.file)").path, "-d", unpacked.path])
        #expect(try Data(contentsOf: unpacked.appendingPathComponent("2-1@2x.png")) == after)
        try incremental.expectSameAsCleanBuild(fixture, output)
    }

    /// The recorded input hashes are XXH3-128 as `xxhsum -H2` (a tool we did not write) prints it.
    @Test func inputHashesAreXXH3OfTheFilesBytes() throws {
        let fixture = try MagazineFixture(issues: ["f-1"])
        let output = try Shell.temporaryFolder()
        _ = try incremental.build(fixture, into: output)
        let manifest = try #require(BuildManifest.read(in: output.appendingPathComponent("f-1")))
        #expect(manifest.inputs.count == 12)
        for input in manifest.inputs {
            let line = try Shell.run("xxhsum", ["-H2", fixture.url("issues/f-1/\(input.path)").path]).stdout
            #expect(line.split(separator: " ").first.map(String.init) == input.xxh3, "\(input.path)")
        }
    }
}
