import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// What a build records as its own in an issue's output folder (`.newsstand/manifest.json`
/// and `.newsstand/written.json`), and how that decides what it may remove.
@Suite struct OutputRecordsTests {
    private func build(_ fixture: MagazineFixture, into output: URL, versioned: Bool = false, force: Bool = false) throws
        -> BuildReport
    {
        let (magazine, plans) = try fixture.plans()
        return try MagazineBuilder(
            magazine: magazine, options: BuildOptions(output: output, jobs: 2, force: force, versioned: versioned)
        ).build(plans)
    }

    private func written(_ folder: URL) throws -> [String] {
        let data = try Data(contentsOf: folder.appendingPathComponent(".newsstand/written.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String]])["files"] ?? []
    }

    private func setWritten(_ files: [String], in folder: URL) throws {
        try JSONSerialization.data(withJSONObject: ["files": files]).write(
            to: folder.appendingPathComponent(".newsstand/written.json"))
    }

    @Test func aBuildRecordsExactlyItsOutputs() throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let folder = output.appendingPathComponent("f-1")
        #expect(
            try written(folder) == ["cover.png", "cover@2x.png", "f-1.index.json", "f-1.index@2x.json", "f-1.zip", "f-1@2x.zip"])
        #expect(
            FolderSnapshot(folder).paths == [
                ".newsstand", ".newsstand/manifest.json", ".newsstand/written.json", "cover.png", "cover@2x.png",
                "f-1.index.json",
                "f-1.index@2x.json", "f-1.zip", "f-1@2x.zip",
            ])
    }

    @Test func filesOfAnInterruptedBuildAreRemovedByTheNextOne() throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output, versioned: true)
        let folder = output.appendingPathComponent("f-1")
        // What a build killed after renaming its bundles and before writing its manifest
        // leaves: new versioned bundles, a temporary file, its record, no manifest.
        for name in ["f-1.0badc0de.zip", "f-1.0badc0de@2x.zip", ".f-1.zip.4242.tmp"] {
            try Data("partial".utf8).write(to: folder.appendingPathComponent(name))
        }
        try setWritten(
            try written(folder) + ["f-1.0badc0de.zip", "f-1.0badc0de@2x.zip", ".f-1.zip.4242.tmp"], in: folder)
        try FileManager.default.removeItem(at: folder.appendingPathComponent(".newsstand/manifest.json"))
        try Data("mine".utf8).write(to: folder.appendingPathComponent("mine.txt"))

        let report = try build(fixture, into: output, versioned: true)
        #expect(report.built == ["f-1"])
        let names = FolderSnapshot(folder).paths.filter { !$0.hasPrefix(".newsstand") }
        #expect(names.count == 7, "\(names)")  // two bundles, two indexes, two covers, mine.txt
        #expect(names.contains("mine.txt"))
        #expect(!names.contains { $0.contains("0badc0de") || $0.hasSuffix(".tmp") }, "\(names)")
        #expect(report.warnings == ["left \(folder.path)/mine.txt in place: newsstand did not write it"])
    }

    @Test func aRecordedNameThatIsNowAFolderOrLinkIsLeft() throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let folder = output.appendingPathComponent("f-1")
        let elsewhere = try Shell.temporaryFolder().appendingPathComponent("target.txt")
        try Data("not ours".utf8).write(to: elsewhere)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("old.zip"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("old@2x.zip"), withDestinationURL: elsewhere)
        try setWritten(try written(folder) + ["old.zip", "old@2x.zip"], in: folder)
        let report = try build(fixture, into: output, force: true)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("old.zip").path))
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("old@2x.zip").path))
                == elsewhere.path)
        #expect(try String(contentsOf: elsewhere, encoding: .utf8) == "not ours")
        #expect(report.warnings.contains("left \(folder.path)/old.zip in place: it is a folder, not the file newsstand wrote"))
        #expect(
            report.warnings.contains(
                "left \(folder.path)/old@2x.zip in place: it is a symbolic link, not the file newsstand wrote"))
    }

    @Test func aStaleFolderWhoseRecordLiesIsLeftAndStopsTheBuild() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let folder = output.appendingPathComponent("f-2")
        try setWritten(["f-2.zip", "../f-1/f-1.zip"], in: folder)
        try FileManager.default.removeItem(at: fixture.url("issues/f-2"))
        let before = FolderSnapshot(output)
        #expect {
            _ = try build(fixture, into: output)
        } throws: { error in
            guard let error = error as? BuildError else { return false }
            return error.issue == "f-2" && error.path == folder.appendingPathComponent(".newsstand/written.json").path
                && error.reason.hasPrefix("lists '../f-1/f-1.zip', which is not a plain file name; newsstand does not act on it")
        }
        let after = FolderSnapshot(output)
        #expect(after.differences(from: before).allSatisfy { $0.hasPrefix("f-1/") }, "\(after.differences(from: before))")
        #expect(after.entries.filter { $0.key.hasPrefix("f-2") } == before.entries.filter { $0.key.hasPrefix("f-2") })
    }

    @Test func theLibraryRefusesAnOutputInsideTheMagazineToo() throws {
        let fixture = try MagazineFixture()
        let before = FolderSnapshot(fixture.root)
        #expect {
            _ = try build(fixture, into: fixture.url("issues"))
        } throws: { error in
            (error as? BuildError)?.reason.contains("it is inside the magazine") == true
        }
        #expect(FolderSnapshot(fixture.root) == before)
    }
}
