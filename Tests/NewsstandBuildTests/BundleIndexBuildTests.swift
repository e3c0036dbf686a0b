import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandTestSupport
import Testing

/// The bundle indexes a build writes beside its bundles (issue 14): their names, that builds
/// write the same ones, and when they are written again. Checked against Python's `zipfile` and
/// the local headers as Python reads them, never against our own zip code: `BundleIndexZipfileTests`.
@Suite struct BundleIndexBuildTests {
    func build(_ fixture: MagazineFixture, into output: URL, versioned: Bool, force: Bool = false) throws -> BuildReport {
        let (magazine, plans) = try fixture.plans()
        return try MagazineBuilder(
            magazine: magazine, options: BuildOptions(output: output, jobs: 2, force: force, versioned: versioned)
        ).build(plans)
    }

    func view(of index: BundleIndex) -> [String] {
        ["bundle \(index.bundleSize) \(index.bundleSHA256)"]
            + index.entries.map {
                "\($0.name) \($0.size) \($0.sha256) \($0.crc32) \($0.method.rawValue) \($0.headerOffset) \($0.dataOffset) \($0.dataLength)"
            }
    }

    func manifest(_ output: URL, _ issue: String) throws -> BuildManifest {
        try #require(BuildManifest.read(in: output.appendingPathComponent(issue)))
    }

    @Test func indexesAreNamedLikeTheirBundles() throws {
        let fixture = try MagazineFixture()
        let fixed = try Shell.temporaryFolder()
        _ = try build(fixture, into: fixed, versioned: false)
        let plain = try manifest(fixed, "f-1")
        #expect(plain.index?.file == "f-1.index.json")
        #expect(plain.retinaIndex?.file == "f-1.index@2x.json")

        let versioned = try Shell.temporaryFolder()
        _ = try build(fixture, into: versioned, versioned: true)
        let named = try manifest(versioned, "f-1")
        let stem = String(named.bundle.file.dropLast(".zip".count))  // f-1.<tag>
        #expect(stem.hasPrefix("f-1.") && stem.count == "f-1.".count + 8)
        #expect(named.retinaBundle.file == "\(stem)@2x.zip")
        #expect(named.index?.file == "\(stem).index.json")
        #expect(named.retinaIndex?.file == "\(stem).index@2x.json")
        // Only the versioned files are left: the plain names were renamed, not copied.
        let files = try FileManager.default.contentsOfDirectory(atPath: versioned.appendingPathComponent("f-1").path)
        #expect(files.filter { $0.contains("index") }.sorted() == ["\(stem).index.json", "\(stem).index@2x.json"])
    }

    @Test func twoCleanBuildsWriteTheSameIndexes() throws {
        let fixture = try MagazineFixture()
        let first = try Shell.temporaryFolder()
        let second = try Shell.temporaryFolder()
        _ = try build(fixture, into: first, versioned: true)
        _ = try build(fixture, into: second, versioned: true)
        let a = try manifest(first, "f-1")
        let b = try manifest(second, "f-1")
        #expect(a.index == b.index && a.retinaIndex == b.retinaIndex)
        for name in [try #require(a.index).file, try #require(a.retinaIndex).file] {
            #expect(
                try Data(contentsOf: first.appendingPathComponent("f-1/\(name)"))
                    == (try Data(contentsOf: second.appendingPathComponent("f-1/\(name)"))))
        }
    }

    @Test func anUnchangedIssueKeepsItsIndexesAndAnOldRecordWithoutThemIsRebuilt() throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output, versioned: true)
        let recorded = try manifest(output, "f-1")
        let indexURL = output.appendingPathComponent("f-1/\(try #require(recorded.index).file)")
        let inode = try FileManager.default.attributesOfItem(atPath: indexURL.path)[.systemFileNumber] as? Int
        var report = try build(fixture, into: output, versioned: true)
        #expect(report.upToDate == ["f-1"])
        #expect(try FileManager.default.attributesOfItem(atPath: indexURL.path)[.systemFileNumber] as? Int == inode)

        // A record from before indexes: the issue is built again, and gets them.
        let manifestURL = BuildManifest.url(in: output.appendingPathComponent("f-1"))
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        json["index"] = nil
        json["retinaIndex"] = nil
        try JSONSerialization.data(withJSONObject: json).write(to: manifestURL)
        report = try build(fixture, into: output, versioned: true)
        #expect(report.built == ["f-1"])
        #expect(try manifest(output, "f-1").index == recorded.index)
    }

    /// The index in the output folder is ours: one someone edited (same size) or replaced by a
    /// link is written again, and the link's target is never written through.
    @Test(arguments: ["edited", "link"])
    func anIndexSomeoneChangedIsWrittenAgain(change: String) throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output, versioned: true)
        let recorded = try manifest(output, "f-1")
        let record = try #require(recorded.retinaIndex)
        let url = output.appendingPathComponent("f-1/\(record.file)")
        let good = try Data(contentsOf: url)
        let outside = try Shell.temporaryFolder().appendingPathComponent("elsewhere.json")
        switch change {
        case "edited":
            var edited = good
            edited[edited.count - 3] ^= 0x01  // same size: only the bytes tell
            try edited.write(to: url)
        default:
            try good.write(to: outside)  // same size and bytes: only the link tells
            try FileManager.default.removeItem(at: url)
            try FileManager.default.createSymbolicLink(at: url, withDestinationURL: outside)
        }
        let report = try build(fixture, into: output, versioned: true)
        #expect(report.built == ["f-1"])
        #expect(FileStatus.kind(of: url, followingLinks: false) == .regularFile)
        #expect(try Data(contentsOf: url) == good)
        if change == "link" { #expect(try Data(contentsOf: outside) == good) }
        #expect(try manifest(output, "f-1").retinaIndex == record)
    }
}
