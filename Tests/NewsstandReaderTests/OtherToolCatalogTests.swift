import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Catalogs and bundles in the shapes other tools make (issue 11, section 3): a catalog in the
/// seed's minimal form as Python's plistlib writes it, bundles as Debian's `zip -r` makes them
/// with and without their enclosing folder, refreshed, downloaded and read at both scales, with
/// the fallback to normal files where the server has no retina ones. On a scripted transport
/// (the fast tier); `OtherToolZipTests` runs the tools themselves on nginx.
@Suite("Catalogs and bundles from other tools", .timeLimit(.minutes(1)))
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

    /// Serves each issue's bundles in the shapes Debian's `zip -r` makes (flat: the files;
    /// enclosed: the folder's entries under it, and `__MACOSX/` beside it) and the catalog as
    /// Python's plistlib writes it (`plistlib.dump(..., fmt=FMT_XML)`: sorted keys, tabs, dates
    /// in UTC), holding only the five original keys, at `catalog`.
    static func publish(_ issues: [Published], on bed: ScriptedBed, location: String = "", catalog: String = "issues.plist") {
        var dicts: [String] = []
        for issue in issues {
            for retina in issue.hasRetina ? [false, true] : [false] {
                let scale = retina ? "@2x" : ""
                let files: [(String, String)] = [("pages.plist", Self.pages), ("1-0\(scale).png", "image \(issue.name)\(scale)")]
                let bundle: [StoredZip.Entry] =
                    issue.enclosed
                    ? [.folder(issue.name)] + files.map { .text("\(issue.name)/\($0.0)", $0.1) } + [
                        .folder("__MACOSX"), .folder("__MACOSX/\(issue.name)"),
                        .text("__MACOSX/\(issue.name)/._1-0\(scale).png", "fork"),
                    ]
                    : files.map { .text($0.0, $0.1) }
                bed.serveBundle(bundle, at: "\(issue.name)/\(issue.name)\(scale).zip")
                bed.serve(Data("cover \(issue.name)\(scale)".utf8), at: "\(issue.name)/cover\(scale).png")
            }
            let base = bed.baseURL.absoluteString + location + issue.name + "/"
            let date = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(issue.day) * 86_400))
            dicts.append(
                "\t<dict>\n\t\t<key>Content</key>\n\t\t<string>\(base + issue.name).zip</string>\n"
                    + "\t\t<key>Cover</key>\n\t\t<string>\(base)cover.png</string>\n"
                    + "\t\t<key>Date</key>\n\t\t<date>\(date)</date>\n"
                    + "\t\t<key>Name</key>\n\t\t<string>\(issue.name)</string>\n"
                    + "\t\t<key>Title</key>\n\t\t<string>Issue \(issue.name)</string>\n\t</dict>\n")
        }
        let plist =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n"
            + "<plist version=\"1.0\">\n<array>\n" + dicts.joined() + "</array>\n</plist>\n"
        bed.serve(Data(plist.utf8), at: catalog)
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

    @Test func aRetinaLibraryFallsBackToNormalFilesOnlyWhereTheServerHasNoRetinaOnes() async throws {
        try await ScriptedBed.with { bed in
            Self.publish(Self.issues, on: bed)
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
            #expect(bed.allRequests().allSatisfy { $0.uri != "/a-3/a-3.zip" && $0.uri != "/a-3/cover.png" })

            // Unchanged on the next refresh: no cover fetched again, nothing flagged as updated.
            Self.publish(Self.issues, on: bed)
            let again = try await library.refresh()
            #expect(again.contentUpdates.isEmpty)
            #expect(bed.requests("a-1/cover.png").count == 1)
            #expect(bed.requests("a-1/cover@2x.png").count == 1)

            // Remembered: persisted with the library (`newsstand library list` shows it:
            // `OtherToolZipTests`).
            await library.close()
            let reopened = try bed.library()
            #expect(await reopened.issue(named: "a-1")?.installedScale == .normal)
            #expect(await reopened.issue(named: "a-3")?.installedScale == .retina)
            await reopened.close()
        }
    }

    @Test func onlyA404Or410FallsBackAndOnlyWithoutRetinaKeys() async throws {
        try await ScriptedBed.with { bed in
            // A server error on the @2x bundle stays an error: /broken/ answers 503 to everything.
            Self.publish(
                [Published(name: "b-1", enclosed: false, hasRetina: false, day: 1)], on: bed, location: "broken/",
                catalog: "served.plist")
            let library = try bed.library(scale: .retina) { $0.maxAttempts = 2 }
            try await library.refresh(from: bed.baseURL.appendingPathComponent("served.plist"))
            let url = bed.baseURL.absoluteString + "broken/b-1/b-1@2x.zip"
            await #expect(throws: LibraryError.downloadHTTPStatus(name: "b-1", url: url, status: 503)) {
                try await library.download("b-1")
            }
            #expect(bed.requests("broken/b-1/b-1@2x.zip", atLeast: 2).map(\.status) == [503, 503])
            #expect(bed.allRequests().allSatisfy { $0.uri != "/broken/b-1/b-1.zip" })

            // An entry that says it has @2x files (RetinaContentSize) never falls back.
            var entry = CatalogEntry(
                name: "c-1", title: "C", date: Date(timeIntervalSince1970: 86_400 * 5),
                cover: bed.baseURL.absoluteString + "c-1/cover.png",
                content: bed.baseURL.absoluteString + "c-1/c-1.zip")
            entry.retinaContentSize = 100
            Self.publish([Published(name: "c-1", enclosed: false, hasRetina: false, day: 5)], on: bed)
            try bed.writeCatalog([entry])
            try await library.refresh(from: bed.catalogURL)
            await #expect(
                throws: LibraryError.downloadHTTPStatus(
                    name: "c-1", url: bed.baseURL.absoluteString + "c-1/c-1@2x.zip", status: 404)
            ) {
                try await library.download("c-1")
            }
            #expect(bed.allRequests().allSatisfy { $0.uri != "/c-1/c-1.zip" })
        }
    }

    @Test func anEnclosingFolderKeepsEveryUnpackRule() async throws {
        try await ScriptedBed.with { bed in
            Self.publish([Published(name: "d-1", enclosed: true, hasRetina: false, day: 1)], on: bed)
            // The same bundle, with a link out of the issue inside its one folder (`zip --symlinks`).
            bed.serveBundle(
                [.folder("d-1"), .text("d-1/pages.plist", Self.pages), .symlink("d-1/1-0.png", target: "/etc/passwd")],
                at: "d-1/d-1.zip")
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
