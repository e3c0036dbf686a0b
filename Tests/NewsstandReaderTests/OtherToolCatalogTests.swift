import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Catalogs and bundles that other tools made (issue 11, section 3): a catalog in the seed's
/// minimal form written by Python's plistlib, bundles zipped by Debian's `zip -r` with and
/// without their enclosing folder, served by nginx, refreshed, downloaded and read at both scales.
@Suite("Catalogs and bundles from other tools", .timeLimit(.minutes(1)), .tags(.needsServer))
struct OtherToolCatalogTests {
    /// A page config with one SimplePage over `1-0.png`.
    static let pages = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><array><array><dict><key>class</key><string>SimplePage</string>\
        <key>properties</key><dict><key>baseImage</key><string>1-0.png</string></dict></dict></array></array></plist>
        """

    /// How an issue is published on the server.
    struct Published {
        var name: String
        /// Whether the bundle was zipped with its enclosing folder (`zip -r a.zip a/`), with a
        /// `__MACOSX/` folder beside it as macOS's zip adds.
        var enclosed: Bool
        /// Whether `<name>@2x.zip` and `cover@2x.png` exist on the server.
        var hasRetina: Bool
        var day: Int
    }

    /// Writes each issue's files, zips them with Debian's zip, and writes the catalog with
    /// Python's plistlib holding only the five original keys.
    static func publish(_ issues: [Published], on bed: Testbed, location: String = "") throws {
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
                try Data(Self.pages.utf8).write(to: folder.appendingPathComponent("pages.plist"))
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

    /// The first page's image, as the reader resolves it.
    static func firstImage(_ library: IssueLibrary, _ name: String) async throws -> URL {
        let content = try await library.content(of: name)
        return try #require(content.articles.first?.first?.page(as: SimplePage.self)).baseImage
    }

    static let issues = [
        Published(name: "a-1", enclosed: false, hasRetina: false, day: 1),
        Published(name: "a-2", enclosed: true, hasRetina: false, day: 2),
        Published(name: "a-3", enclosed: true, hasRetina: true, day: 3),
    ]

    @Test func aNormalLibraryReadsBothShapes() async throws {
        try await Testbed.with { bed in
            try Self.publish(Self.issues, on: bed)
            let library = try bed.library()
            let result = try await library.refresh(from: bed.catalogURL)
            #expect(result.added == ["a-1", "a-2", "a-3"])
            #expect(result.problems.isEmpty)
            for issue in Self.issues {
                let installed = try await library.download(issue.name)
                #expect(installed.installedScale == .normal)
                #expect(installed.coverScale == .normal)
                let image = try await Self.firstImage(library, issue.name)
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

    @Test func aRetinaLibraryFallsBackToNormalFilesOnlyWhereTheServerHasNoRetinaOnes() async throws {
        try await Testbed.with { bed in
            try Self.publish(Self.issues, on: bed)
            let library = try bed.library(scale: .retina)
            let result = try await library.refresh(from: bed.catalogURL)
            #expect(result.added == ["a-1", "a-2", "a-3"])
            #expect(result.problems.isEmpty, "a missing @2x cover is not a problem when the normal one exists")
            for name in ["a-1", "a-2"] {
                let issue = try #require(await library.issue(named: name))
                #expect(issue.coverScale == .normal)
                #expect(try String(contentsOf: #require(issue.coverFileURL), encoding: .utf8) == "cover \(name)")
                #expect(bed.requests("\(name)/cover@2x.png").map(\.status) == [404])
                #expect(bed.requests("\(name)/cover.png").map(\.status) == [200])

                let installed = try await library.download(name)
                #expect(installed.installedScale == .normal)
                #expect(bed.requests("\(name)/\(name)@2x.zip").map(\.status) == [404], "a 404 is not retried")
                #expect(bed.requests("\(name)/\(name).zip").map(\.status) == [200])
                let image = try await Self.firstImage(library, name)
                #expect(image == installed.contentURL.appendingPathComponent("1-0.png"))
                #expect(try String(contentsOf: image, encoding: .utf8) == "image \(name)")
            }
            let retina = try await library.download("a-3")
            #expect(retina.installedScale == .retina)
            #expect(retina.coverScale == .retina)
            #expect(try await Self.firstImage(library, "a-3") == retina.contentURL.appendingPathComponent("1-0@2x.png"))
            #expect(bed.nginx.requests().allSatisfy { $0.uri != "/a-3/a-3.zip" && $0.uri != "/a-3/cover.png" })

            // Unchanged on the next refresh: no cover fetched again, nothing flagged as updated.
            try Self.publish(Self.issues, on: bed)
            let again = try await library.refresh()
            #expect(again.contentUpdates.isEmpty)
            #expect(bed.requests("a-1/cover.png").count == 1)
            #expect(bed.requests("a-1/cover@2x.png").count == 1)

            // Remembered: persisted with the library and shown by `newsstand library list`.
            await library.close()
            let reopened = try bed.library()
            #expect(await reopened.issue(named: "a-1")?.installedScale == .normal)
            #expect(await reopened.issue(named: "a-3")?.installedScale == .retina)
            await reopened.close()
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

    @Test func onlyA404Or410FallsBackAndOnlyWithoutRetinaKeys() async throws {
        try await Testbed.with { bed in
            // A server error on the @2x bundle stays an error: /broken/ answers 503 to everything.
            try Self.publish([Published(name: "b-1", enclosed: false, hasRetina: false, day: 1)], on: bed, location: "broken/")
            let catalog = bed.nginx.root.appendingPathComponent("issues.plist")
            let served = bed.nginx.root.appendingPathComponent("served.plist")
            try FileManager.default.moveItem(at: catalog, to: served)
            let library = try bed.library(scale: .retina) { $0.maxAttempts = 2 }
            try await library.refresh(from: bed.nginx.baseURL.appendingPathComponent("served.plist"))
            let url = bed.nginx.baseURL.absoluteString + "broken/b-1/b-1@2x.zip"
            await #expect(throws: LibraryError.downloadHTTPStatus(name: "b-1", url: url, status: 503)) {
                try await library.download("b-1")
            }
            #expect(bed.requests("broken/b-1/b-1@2x.zip", atLeast: 2).map(\.status) == [503, 503])
            #expect(bed.nginx.requests().allSatisfy { $0.uri != "/broken/b-1/b-1.zip" })

            // An entry that says it has @2x files (RetinaContentSize) never falls back.
            var entry = CatalogEntry(
                name: "c-1", title: "C", date: Date(timeIntervalSince1970: 86_400 * 5),
                cover: bed.nginx.baseURL.absoluteString + "c-1/cover.png",
                content: bed.nginx.baseURL.absoluteString + "c-1/c-1.zip")
            entry.retinaContentSize = 100
            try Self.publish([Published(name: "c-1", enclosed: false, hasRetina: false, day: 5)], on: bed)
            try bed.writeCatalog([entry])
            try await library.refresh(from: bed.catalogURL)
            await #expect(
                throws: LibraryError.downloadHTTPStatus(
                    name: "c-1", url: bed.nginx.baseURL.absoluteString + "c-1/c-1@2x.zip", status: 404)
            ) {
                try await library.download("c-1")
            }
            #expect(bed.nginx.requests().allSatisfy { $0.uri != "/c-1/c-1.zip" })
        }
    }

    @Test func anEnclosingFolderKeepsEveryUnpackRule() async throws {
        try await Testbed.with { bed in
            try Self.publish([Published(name: "d-1", enclosed: true, hasRetina: false, day: 1)], on: bed)
            // The same bundle, with a link out of the issue inside its one folder.
            let stage = try Shell.temporaryFolder("enclosed-link")
            defer { try? FileManager.default.removeItem(at: stage) }
            let folder = stage.appendingPathComponent("d-1")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(Self.pages.utf8).write(to: folder.appendingPathComponent("pages.plist"))
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent("1-0.png").path, withDestinationPath: "/etc/passwd")
            let archive = bed.nginx.root.appendingPathComponent("d-1/d-1.zip")
            try FileManager.default.removeItem(at: archive)
            let zipped = try Shell.run("zip", ["-q", "-r", "--symlinks", archive.path, "d-1/"], in: stage)
            #expect(zipped.status == 0)
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            do {
                try await library.download("d-1")
                Testing.Issue.record("a bundle with a link was installed")
            } catch let error as LibraryError {
                guard case .unpackFailed(let name, _) = error else { throw error }
                #expect(name == "d-1")
            }
            #expect(await library.issue(named: "d-1")?.status == IssueStatus.none)
            let issues = bed.libraryFolder.appendingPathComponent("Issues")
            #expect(try FileManager.default.contentsOfDirectory(atPath: issues.path).isEmpty, "nothing left in Issues/")
        }
    }
}
