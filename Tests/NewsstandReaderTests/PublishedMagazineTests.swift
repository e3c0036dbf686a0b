import Foundation
import NewsstandReader
import NewsstandTestSupport
import Testing

/// End to end: the sample built and published by the `newsstand` program to a real nginx
/// (WebDAV), then refreshed, downloaded, verified and unpacked by the reader library.
@Suite(.tags(.needsServer)) struct PublishedMagazineTests {
    @Test(arguments: [LibraryScale.normal, .retina])
    func readerDownloadsWhatWasPublished(scale: LibraryScale) async throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let work = try Shell.temporaryFolder("e2e")
        defer { try? FileManager.default.removeItem(at: work) }
        let magazine = try nginx.sampleMagazine(in: work)
        let output = work.appendingPathComponent("out")
        let build = try Shell.run(Shell.newsstand, ["build", magazine.path, "--output", output.path])
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let publish = try Shell.run(Shell.newsstand, ["publish", output.path, "--to", nginx.baseURL.absoluteString + "dav/"])
        #expect(publish.status == 0, "\(publish.stdout)\(publish.stderr)")

        let library = try IssueLibrary(folder: work.appendingPathComponent("library"), scale: scale)
        let refresh = try await library.refresh(from: nginx.baseURL.appendingPathComponent("issues.plist"))
        #expect(Set(refresh.added) == ["a-3", "a-2", "a-1"])
        #expect(await library.issues.map(\.name) == ["a-3", "a-2", "a-1"])
        let issue = try await library.download("a-2")
        #expect(issue.status == .available)
        let suffix = scale == .retina ? "@2x" : ""
        let built = try BuiltIssue("a-2", in: output)
        let bundle = scale == .retina ? built.retinaBundle : built.bundle
        #expect(issue.remoteContentURL.lastPathComponent == bundle)
        for file in ["pages.plist", "issue.plist", "1-0\(suffix).png"] {
            #expect(FileManager.default.fileExists(atPath: issue.contentURL.appendingPathComponent(file).path), "\(file)")
        }
        #expect(nginx.requests().contains { $0.uri == "/a-2/\(bundle)" && $0.status == 200 })

        // Reading: the cursor starts at the beginning; the position survives reopening the library.
        var cursor = try await library.cursor(for: "a-2")
        #expect(cursor.position == .start)
        #expect(cursor.current.page(as: SimplePage.self)?.baseImage.lastPathComponent == "1-0\(suffix).png")
        let moved = cursor.moveToNextArticle()
        #expect(moved)
        try await library.setReadingPosition(cursor.position, of: "a-2")
        await library.close()
        let reopened = try IssueLibrary(folder: work.appendingPathComponent("library"))
        #expect(try await reopened.cursor(for: "a-2").position == ReadingPosition(article: 1, page: 0))
        await #expect(throws: ContentError.notAvailable(issue: "a-1")) { _ = try await reopened.content(of: "a-1") }
    }
}
