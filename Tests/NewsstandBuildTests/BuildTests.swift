import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Synchronization
import Testing

/// Building bundles and catalogs in process: layout, content, incremental rebuilds, failures.
@Suite(.tags(.needsTools)) struct BuildTests {
    private func build(_ fixture: MagazineFixture, into output: URL, force: Bool = false) throws -> BuildReport {
        let (magazine, plans) = try fixture.plans()
        return try MagazineBuilder(
            magazine: magazine, options: BuildOptions(output: output, jobs: 2, force: force, versioned: false)
        ).build(plans)
    }

    private func entries(_ zip: URL) throws -> [String] {
        try Shell.python("import zipfile,sys; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))", [zip.path])
            .stdout.split(separator: "\n").map(String.init)
    }

    @Test func bundlesHoldConfigsAndReferencedAssetsAtTheRoot() throws {
        let fixture = try MagazineFixture()
        try fixture.write("issues/f-1/assets/unused.png", MagazineFixture.png(width: 1, height: 1))
        let output = try Shell.temporaryFolder()
        let report = try build(fixture, into: output)
        #expect(report.built == ["f-1"])
        let folder = output.appendingPathComponent("f-1")
        #expect(
            try entries(folder.appendingPathComponent("f-1.zip")) == [
                "issue.plist", "pages.plist", "1-0.png", "2-0.png", "2-1.png", "2-1t.png",
            ])
        #expect(
            try entries(folder.appendingPathComponent("f-1@2x.zip"))
                == ["issue.plist", "pages.plist", "1-0@2x.png", "2-0@2x.png", "2-1@2x.png", "2-1t@2x.png"])
        let cover = try Data(contentsOf: folder.appendingPathComponent("cover@2x.png"))
        #expect(cover == (try Data(contentsOf: fixture.url("issues/f-1/assets/cover@2x.png"))))
        let retina = try Data(contentsOf: fixture.url("issues/f-1/assets/2-1@2x.png"))
        let unpacked = try Shell.temporaryFolder()
        try Shell.run("unzip", ["-q", folder.appendingPathComponent("f-1@2x.zip").path, "-d", unpacked.path])
        #expect(try Data(contentsOf: unpacked.appendingPathComponent("2-1@2x.png")) == retina)
    }

    @Test func catalogListsIssuesNewestFirstWithChecksums() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let (entries, problems) = try Catalog.decode(Data(contentsOf: output.appendingPathComponent("issues.plist")))
        #expect(problems.isEmpty)
        #expect(entries.map(\.name) == ["f-2", "f-1"])
        let newest = try #require(entries.first)
        #expect(newest.content == "https://example.com/mag/f-2/f-2.zip")
        #expect(newest.cover == "https://example.com/mag/f-2/cover.png")
        #expect(newest.contentURL(retina: true) == "https://example.com/mag/f-2/f-2@2x.zip")
        #expect(newest.summary == "The f-2 issue.")
        let bundle = output.appendingPathComponent("f-2/f-2@2x.zip")
        #expect(newest.retinaContentSHA256 == (try SHA256.hex(ofFileAt: bundle)))
        #expect(newest.retinaContentSize == (try FileManager.default.attributesOfItem(atPath: bundle.path)[.size] as? Int))
    }

    @Test func unchangedIssuesAreNotRebuilt() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let zip = output.appendingPathComponent("f-1/f-1.zip")
        let before = try FileManager.default.attributesOfItem(atPath: zip.path)[.modificationDate] as? Date
        // Touching a file without changing it does not count as a change.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: fixture.url("issues/f-1/assets/1-0.png").path)
        var report = try build(fixture, into: output)
        #expect(report.built == [])
        #expect(report.upToDate == ["f-1", "f-2"])
        #expect(try FileManager.default.attributesOfItem(atPath: zip.path)[.modificationDate] as? Date == before)

        try fixture.image("f-2", "2-0.png", width: 12, height: 20)
        report = try build(fixture, into: output)
        #expect(report.built == ["f-2"])
        #expect(report.upToDate == ["f-1"])

        report = try build(fixture, into: output, force: true)
        #expect(report.built == ["f-1", "f-2"])
    }

    @Test func issuesRemovedFromTheMagazineLeaveTheOutputAndCatalog() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try FileManager.default.removeItem(at: fixture.url("issues/f-2"))
        let report = try build(fixture, into: output)
        #expect(report.removed == ["f-2"])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("f-2").path))
        #expect(
            try Catalog.decode(Data(contentsOf: output.appendingPathComponent("issues.plist"))).entries.map(\.name) == ["f-1"])
    }

    @Test func assetThatVanishesBeforePackingNamesTheIssueAndFileAndLeavesNoArchive() throws {
        let fixture = try MagazineFixture()
        let (magazine, plans) = try fixture.plans()
        try fixture.remove("issues/f-1/assets/2-1@2x.png")
        let output = try Shell.temporaryFolder()
        #expect {
            _ = try MagazineBuilder(magazine: magazine, options: BuildOptions(output: output, jobs: 2, versioned: false)).build(
                plans)
        } throws: { error in
            guard let error = error as? BuildError else { return false }
            return error.issue == "f-1" && error.path.hasSuffix("assets/2-1@2x.png")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("f-1").path)
        #expect(!left.contains("f-1@2x.zip"))
        #expect(!left.contains { $0.hasSuffix(".tmp") })
        #expect(BuildManifest.read(in: output.appendingPathComponent("f-1")) == nil)
    }

    @Test func outputFolderThatIsAFileIsRefused() throws {
        let fixture = try MagazineFixture()
        let file = try Shell.temporaryFolder().appendingPathComponent("out")
        try Data("x".utf8).write(to: file)
        #expect(throws: BuildError.outputIsAFile(path: file.path)) {
            _ = try build(fixture, into: file)
        }
    }

    /// A build's jobs run on the calling thread and on threads of their own, never on
    /// Dispatch's global workers (as many as the cores): held there, the build's long jobs
    /// starved everything else in the process that needs them, URLSession's callbacks and
    /// timers among them (a reader test's catalog "stalled" while builds ran in process).
    @Test func buildJobsStayOffDispatchsWorkers() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2", "f-3"])
        let (magazine, plans) = try fixture.plans()
        let caller = pthread_self()
        let threads = Mutex<[(own: Bool, caller: Bool)]>([])
        let report = try MagazineBuilder(
            magazine: magazine, options: BuildOptions(output: try Shell.temporaryFolder(), jobs: 3, versioned: false)
        ).build(
            plans,
            progress: { _, _ in
                threads.withLock { $0.append((BlockingWork.isCurrentThread, pthread_equal(pthread_self(), caller) != 0)) }
            })
        #expect(report.built == ["f-1", "f-2", "f-3"])
        let seen = threads.withLock { $0 }
        #expect(seen.count == 6)
        #expect(seen.allSatisfy { $0.own || $0.caller }, "\(seen)")
        #expect(seen.contains { $0.own }, "helpers ran jobs too")
    }

    @Test func feedsAreWrittenFromTheSameEntries() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        let (magazine, plans) = try fixture.plans()
        let report = try MagazineBuilder(
            magazine: magazine, options: BuildOptions(output: output, jobs: 1, feeds: [.shelf, .atom], versioned: false)
        ).build(plans)
        let shelf = try #require(
            JSONSerialization.jsonObject(with: Data(contentsOf: output.appendingPathComponent("shelf.json")))
                as? [[String: String]])
        #expect(shelf.map { $0["name"] } == ["f-2", "f-1"])
        #expect(shelf.first?["date"] == "2026-01-02 08:00:00")
        #expect(shelf.first?["url"] == "https://example.com/mag/f-2/f-2.zip")
        #expect(shelf.first?["info"] == "The f-2 issue.")
        let atom = try Shell.python(
            """
            import sys, xml.etree.ElementTree as ET
            ns = {'a': 'http://www.w3.org/2005/Atom', 'news': 'http://itunes.apple.com/2011/Newsstand'}
            root = ET.parse(sys.argv[1]).getroot()
            for e in root.findall('a:entry', ns):
                icon = e.find('news:cover_art_icons/news:cover_art_icon', ns)
                print(e.find('a:id', ns).text, e.find('a:published', ns).text, icon.get('size'), icon.get('src'))
            """, [output.appendingPathComponent("atom.xml").path])
        #expect(atom.status == 0)
        #expect(
            atom.stdout.hasPrefix(
                "tag:example.com,2026-11-30:/mag/f-2 2026-01-02T08:00:00Z SOURCE https://example.com/mag/f-2/cover@2x.png\n"))
        // The feed's rules are checked while validating (AtomFeedTests), not again by the build.
        #expect(report.feedDiagnostics.isEmpty)
    }
}
