import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Synchronization
import Testing

/// Built bundles and feeds read by tools we did not write: Python's zipfile and xml.etree, unzip.
/// The rest of building is in `BuildTests`, in the fast tier.
@Suite(.tags(.needsTools)) struct BuildToolTests {
    let base = BuildTests()

    private func entries(_ zip: URL) throws -> [String] {
        try Shell.python("import zipfile,sys; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))", [zip.path])
            .stdout.split(separator: "\n").map(String.init)
    }

    @Test func bundlesHoldConfigsAndReferencedAssetsAtTheRoot() throws {
        let fixture = try MagazineFixture()
        try fixture.write("issues/f-1/assets/unused.png", MagazineFixture.png(width: 1, height: 1))
        let output = try Shell.temporaryFolder()
        let report = try base.build(fixture, into: output)
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
