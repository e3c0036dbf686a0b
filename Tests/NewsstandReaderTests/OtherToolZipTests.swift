import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Catalogs and bundles that other tools made (issue 11, section 3): a catalog in the seed's
/// minimal form written by Python's plistlib, bundles zipped by Debian's `zip -r` with and
/// without their enclosing folder, served by nginx, refreshed, downloaded and read; and the
/// command line's list of the scales they were installed at.
@Suite("Catalogs and bundles made by other tools", .timeLimit(.minutes(1)), .tags(.needsServer))
struct OtherToolZipTests {
    /// Writes each issue's files, zips them with Debian's zip, and writes the catalog with
    /// Python's plistlib holding only the five original keys.
    static func publish(_ issues: [OtherToolCatalogTests.Published], on bed: Testbed, location: String = "") throws {
        let stage = try Shell.temporaryFolder("other-tools")
        defer { try? FileManager.default.removeItem(at: stage) }
        var catalog: [[String: Any]] = []
        for issue in issues {
            let served = bed.nginx.root.appendingPathComponent(issue.name)
            try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
            for retina in issue.hasRetina ? [false, true] : [false] {
                let scale = retina ? "@2x" : ""
                let work = stage.appendingPathComponent("\(issue.name)\(scale)")
                let folder = work.appendingPathComponent(issue.name)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(OtherToolCatalogTests.pages.utf8).write(to: folder.appendingPathComponent("pages.plist"))
                try Data("image \(issue.name)\(scale)".utf8).write(to: folder.appendingPathComponent("1-0\(scale).png"))
                let archive = served.appendingPathComponent("\(issue.name)\(scale).zip")
                if issue.enclosed {
                    let forks = work.appendingPathComponent("__MACOSX/\(issue.name)")
                    try FileManager.default.createDirectory(at: forks, withIntermediateDirectories: true)
                    try Data("fork".utf8).write(to: forks.appendingPathComponent("._1-0\(scale).png"))
                    try zip(archive, ["\(issue.name)/", "__MACOSX/"], in: work)
                } else {
                    try zip(archive, ["."], in: folder)
                }
                try Data("cover \(issue.name)\(scale)".utf8).write(to: served.appendingPathComponent("cover\(scale).png"))
            }
            let base = bed.nginx.baseURL.absoluteString + location + issue.name + "/"
            catalog.append([
                "Name": issue.name, "Title": "Issue \(issue.name)", "Date": Double(issue.day) * 86_400,
                "Cover": base + "cover.png", "Content": base + "\(issue.name).zip",
            ])
        }
        let json = try JSONSerialization.data(withJSONObject: catalog)
        let script = """
            import datetime, json, plistlib, sys
            entries = json.loads(sys.argv[1])
            for e in entries:
                e["Date"] = datetime.datetime.fromtimestamp(e["Date"], datetime.timezone.utc).replace(tzinfo=None)
            with open(sys.argv[2], "wb") as f:
                plistlib.dump(entries, f, fmt=plistlib.FMT_XML)
            """
        let written = try Shell.python(
            script, [String(decoding: json, as: UTF8.self), bed.nginx.root.appendingPathComponent("issues.plist").path])
        guard written.status == 0 else { throw TestFailure(written.stderr) }
    }

    static func zip(_ archive: URL, _ paths: [String], in folder: URL) throws {
        try? FileManager.default.removeItem(at: archive)
        let zipped = try Shell.run("zip", ["-q", "-r", archive.path] + paths, in: folder)
        guard zipped.status == 0 else { throw TestFailure(zipped.stderr) }
    }

    @Test func aNormalLibraryReadsBothShapes() async throws {
        try await Testbed.with { bed in
            try Self.publish(OtherToolCatalogTests.issues, on: bed)
            let library = try bed.library()
            let result = try await library.refresh(from: bed.catalogURL)
            #expect(result.added == ["a-1", "a-2", "a-3"])
            #expect(result.problems.isEmpty)
            for issue in OtherToolCatalogTests.issues {
                let installed = try await library.download(issue.name)
                #expect(installed.installedScale == .normal)
                #expect(installed.coverScale == .normal)
                let image = try await OtherToolCatalogTests.firstImage(library, issue.name)
                #expect(image == installed.contentURL.appendingPathComponent("1-0.png"))
                #expect(try String(contentsOf: image, encoding: .utf8) == "image \(issue.name)")
                let files = try FileManager.default.contentsOfDirectory(atPath: installed.contentURL.path).sorted()
                #expect(files == ["1-0.png", "pages.plist"], "no enclosing folder, no __MACOSX")
            }
            let issuesFolder = bed.libraryFolder.appendingPathComponent("Issues")
            #expect(try FileManager.default.contentsOfDirectory(atPath: issuesFolder.path).sorted() == ["a-1", "a-2", "a-3"])
            #expect(bed.nginx.requests().allSatisfy { !$0.uri.contains("@2x") })
        }
    }

    /// `newsstand library list` shows the scale each issue was installed at, normal where the
    /// server had no retina files.
    @Test func theCommandLineListsTheScaleEachIssueWasInstalledAt() async throws {
        try await Testbed.with { bed in
            try Self.publish(OtherToolCatalogTests.issues, on: bed)
            let library = try bed.library(scale: .retina)
            try await library.refresh(from: bed.catalogURL)
            for issue in OtherToolCatalogTests.issues { try await library.download(issue.name) }
            await library.close()
            let list = try Shell.run(Shell.newsstand, ["library", bed.libraryFolder.path, "list"])
            #expect(list.status == 0)
            let lines = list.stdout.split(separator: "\n")
            #expect(lines.count == 3)
            #expect(lines.first { $0.hasPrefix("a-1\t") }?.hasSuffix("  (normal-scale content, normal-scale cover)") == true)
            #expect(lines.first { $0.hasPrefix("a-3\t") }?.hasSuffix("available\t-") == true)
            let json = try Shell.run(Shell.newsstand, ["library", bed.libraryFolder.path, "list", "--format", "json"])
            let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
            #expect(objects.first { $0["name"] as? String == "a-2" }?["installedScale"] as? String == "normal")
            #expect(objects.first { $0["name"] as? String == "a-3" }?["installedScale"] as? String == "retina")
        }
    }
}
