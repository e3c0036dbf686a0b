import Foundation
import NewsstandTestSupport
import Testing

/// The EPUBs and `opds.json` published like every other output: to a real nginx WebDAV
/// endpoint, verified through the served feed, replaced and pruned; and a feed that lies is
/// refused before anything is sent.
@Suite(.serialized, .tags(.needsServer)) struct ChannelPublishTests {
    /// The sample, its BaseURL on `nginx`, built with both channels into `output`.
    struct Site {
        let nginx: Nginx
        let magazine: URL
        let output: URL
        var dav: String { nginx.baseURL.absoluteString + "dav/" }

        init() async throws {
            nginx = try Nginx()
            let work = try Shell.temporaryFolder("channels")
            magazine = try nginx.sampleMagazine(in: work)
            output = work.appendingPathComponent("out")
            try await build()
        }

        func build() async throws {
            let result = await InProcess.newsstand([
                "build", magazine.path, "--output", output.path, "--feed", "opds", "--feed", "epub",
            ])
            guard result.status == 0 else { throw TestFailure("build failed: \(result.stdout) \(result.stderr)") }
        }

        func publish(_ extra: String...) async -> Shell.Result {
            await InProcess.newsstand(["publish", output.path, "--to", dav] + extra, environment: ["NETRC": "/nonexistent"])
        }

        /// `<issue>/<file>` of the issue's EPUB.
        func epub(of issue: String) throws -> String {
            "\(issue)/" + (try ChannelChecks.file(endingIn: ".epub", in: output.appendingPathComponent(issue))).lastPathComponent
        }

        /// Whether nginx serves `path` (below its root).
        func serves(_ path: String) -> Bool {
            FileManager.default.fileExists(atPath: nginx.root.appendingPathComponent(path).path)
        }
    }

    @Test func theEPUBsAndTheFeedArePublishedVerifiedReplacedAndPruned() async throws {
        let site = try await Site()
        defer { site.nginx.stop() }
        var result = await site.publish()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("published: 21 uploaded, 2 catalog(s) replaced"), "\(result.stdout)")
        #expect(result.stdout.contains("verified"))
        let old = try site.epub(of: "a-2")
        #expect(site.serves(old) && site.serves("opds.json"))
        let served = try Data(contentsOf: site.nginx.root.appendingPathComponent("opds.json"))
        #expect(served == (try Data(contentsOf: site.output.appendingPathComponent("opds.json"))))
        #expect(try await ChannelChecks.opds([site.nginx.root.appendingPathComponent("opds.json")]).status == 0)

        // a-2 changes: its new EPUB goes up beside the old, which stays until --prune.
        let pages = site.magazine.appendingPathComponent("issues/a-2/pages.plist")
        try String(contentsOf: pages, encoding: .utf8).replacingOccurrences(
            of: "<string>3-1.png</string>", with: "<string>3-0.png</string>"
        )
        .write(to: pages, atomically: true, encoding: .utf8)
        try await site.build()
        let new = try site.epub(of: "a-2")
        #expect(new != old)
        result = await site.publish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(site.serves(new) && site.serves(old))
        result = await site.publish("--prune")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("delete \(old)"), "\(result.stdout)")
        #expect(site.serves(new) && !site.serves(old))

        // An EPUB gone from the host is found by verification, through the feed that links it.
        let a1 = try site.epub(of: "a-1")
        try FileManager.default.removeItem(at: site.nginx.root.appendingPathComponent(a1))
        result = await site.publish()
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("newsstand publish: verify: opds.json: \(site.nginx.baseURL.absoluteString)\(a1): HTTP 404"),
            "\(result.stderr)")
    }

    @Test func aBuiltFeedThatLinksAFileNotBuiltIsRefusedBeforeAnythingIsSent() async throws {
        let site = try await Site()
        defer { site.nginx.stop() }
        let feed = site.output.appendingPathComponent("opds.json")
        let epub = try site.epub(of: "a-1")
        try String(contentsOf: feed, encoding: .utf8)
            .replacingOccurrences(of: (epub as NSString).lastPathComponent, with: "a-1.00000000.epub")
            .write(to: feed, atomically: true, encoding: .utf8)
        let result = await site.publish()
        #expect(result.status == 1)
        #expect(result.stderr.contains("opds.json"), "\(result.stderr)")
        #expect(result.stderr.contains("a-1.00000000.epub"), "\(result.stderr)")
        #expect(result.stderr.contains("which is not a file of the built issues"), "\(result.stderr)")
        #expect(site.nginx.requests().allSatisfy { $0.method != "PUT" }, "nothing is uploaded")
    }
}
