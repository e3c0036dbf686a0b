import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// `newsstand publish <preview-folder>`: the web edition put on nginx's WebDAV as a publisher
/// would (in process), checked at `PreviewURL` before its index page is switched in and after.
@Suite(.serialized, .tags(.needsServer)) struct PublishWebEditionCommandTests {
    /// Sets (or, with nil, removes) the sample's PreviewURL and writes its preview into `web`.
    private func preview(_ site: PublishCommandTests.Site, previewURL: String?, into web: URL) async throws {
        let settings = site.magazine.appendingPathComponent("magazine.plist")
        var text = try String(contentsOf: settings, encoding: .utf8)
        if let range = text.range(of: #"\s*<key>PreviewURL</key>\s*<string>[^<]*</string>"#, options: .regularExpression) {
            text.removeSubrange(range)
        }
        if let previewURL {
            text = text.replacingOccurrences(
                of: "</dict>", with: "    <key>PreviewURL</key>\n    <string>\(previewURL)</string>\n</dict>")
        }
        try Data(text.utf8).write(to: settings)
        let result = await InProcess.newsstand(["preview", site.magazine.path, "--output", web.path])
        guard result.status == 0 else { throw TestFailure("preview failed: \(result.stdout) \(result.stderr)") }
    }

    /// `newsstand publish <web> --to <nginx's WebDAV>/web/`.
    private func publish(_ web: URL, _ site: PublishCommandTests.Site, _ extra: String...) async -> Shell.Result {
        await InProcess.newsstand(
            ["publish", web.path, "--to", site.dav + "web/"] + extra, environment: ["NETRC": "/nonexistent"])
    }

    @Test func theWebEditionIsPublishedCheckedAtPreviewURLAndVerified() async throws {
        let site = try await PublishCommandTests.Site()
        defer { site.nginx.stop() }
        let web = try Shell.temporaryFolder("web").appendingPathComponent("site")
        let previewURL = site.nginx.baseURL.absoluteString + "web/"
        try await preview(site, previewURL: previewURL, into: web)

        let result = await publish(web, site)
        let published = result.stdout
        #expect(result.status == 0, "\(published)\(result.stderr)")
        #expect(published.contains("check before the switch: "), "\(published)")
        #expect(published.contains(" file(s) at \(previewURL)"), "\(published)")
        #expect(published.contains("verified: every page, image and file of the web edition answers 200 with its size"))
        let steps = published.split(separator: "\n").filter { $0.hasPrefix("  upload ") || $0.hasPrefix("  replace ") }
        #expect(steps.last == "  replace index.html", "the index page last: \(steps)")
        // Text files compared whole (`get` reads the body as text); an image answers 200.
        for path in ["index.html", "a-2/index.html", "preview.css"] {
            let (status, body) = try site.get("web/" + path)
            let local = try Data(contentsOf: web.appendingPathComponent(path))
            #expect(status == 200 && body == local, "\(path)")
        }
        #expect(try site.get("web/a-1/cover.png").0 == 200)
        #expect(try site.get("web/.newsstand/web-edition.json").0 == 404, "the record is not published")
        let (_, servedIndex) = try site.get("web/index.html")

        // Written for another PreviewURL: nothing is switched, the old index page is served.
        let wrong = site.nginx.baseURL.absoluteString + "elsewhere/"
        try site.changeIssue("a-2")
        try await preview(site, previewURL: wrong, into: web)
        let refused = await publish(web, site)
        #expect(refused.status == 1)
        #expect(
            refused.stderr.contains(
                "PreviewURL \(wrong) does not serve what was uploaded to \(site.dav)web/: check PreviewURL in magazine.plist (then run 'newsstand preview' again) or --to"
            ), "\(refused.stderr)")
        #expect(refused.stderr.contains("Nothing that readers are served was changed"), "\(refused.stderr)")
        #expect(!refused.stdout.contains("replace index.html"), "\(refused.stdout)")
        #expect(try site.get("web/index.html").1 == servedIndex, "the old index page is still served")
    }

    @Test func withoutAPreviewURLItIsPublishedUnverifiedOrRefusedWithVerify() async throws {
        let site = try await PublishCommandTests.Site()
        defer { site.nginx.stop() }
        let web = try Shell.temporaryFolder("web").appendingPathComponent("site")
        try await preview(site, previewURL: nil, into: web)

        let asked = await publish(web, site, "--verify")
        #expect(asked.status == 1)
        #expect(
            asked.stderr.contains(
                "--verify: the web edition was written without a PreviewURL in magazine.plist, so where it is served is not known; set PreviewURL and run 'newsstand preview' again"
            ), "\(asked.stderr)")
        #expect(try site.get("web/index.html").0 == 404, "nothing was sent")

        let result = await publish(web, site)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("not verified: the web edition was written without a PreviewURL"), "\(result.stdout)")
        let local = try Data(contentsOf: web.appendingPathComponent("index.html"))
        #expect(try site.get("web/index.html").1 == local)
    }
}
