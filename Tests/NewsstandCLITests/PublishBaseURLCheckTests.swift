import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// A publish checks the new files at their public URLs (`BaseURL` + name) before it switches
/// the catalogs in: with a `BaseURL` that does not lead to `--to`, nothing is switched and the
/// old catalog is still served; with `--fixed-names` it says what it cannot check before.
@Suite(.serialized, .tags(.needsServer)) struct PublishBaseURLCheckTests {
    /// Points the site's magazine at `base` and builds it again.
    private func rebase(_ site: PublishCommandTests.Site, to base: String) async throws {
        let settings = site.magazine.appendingPathComponent("magazine.plist")
        let text = try String(contentsOf: settings, encoding: .utf8)
        let current = try #require(
            text.range(of: #"<string>http://127\.0\.0\.1:[0-9]+/[^<]*</string>"#, options: .regularExpression))
        try Data(text.replacingCharacters(in: current, with: "<string>\(base)</string>").utf8).write(to: settings)
        try await site.build()
    }

    @Test func aBaseURLThatDoesNotServeTheDestinationSwitchesNothing() async throws {
        let site = try await PublishCommandTests.Site()
        defer { site.nginx.stop() }
        #expect(await site.publish().status == 0)
        let (_, served) = try site.get("issues.plist")

        let wrong = site.nginx.baseURL.absoluteString + "elsewhere/"
        try site.changeIssue("a-2")
        try await rebase(site, to: wrong)
        let before = site.nginx.requests().count
        let result = await site.publish()
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "BaseURL \(wrong) does not serve what was uploaded to \(site.dav): check BaseURL in magazine.plist (then build again) or --to"
            ), "\(result.stderr)")
        #expect(result.stderr.contains("\(wrong)a-"), "names a URL that failed: \(result.stderr)")
        #expect(result.stderr.contains("HTTP 404"))
        #expect(result.stderr.contains("Nothing that readers are served was changed"), "\(result.stderr)")
        #expect(result.stdout.contains("check before the switch: "), "\(result.stdout)")
        #expect(!result.stdout.contains("published:"))
        // Nothing was staged or switched (only the state file moved, to record the uploads): the
        // catalog served is the one before.
        let requests = site.nginx.requests()[before...].map { "\($0.method) \($0.uri)" }
            .filter { !$0.contains("/.newsstand-publish.") }
        #expect(
            !requests.contains { $0.hasPrefix("MOVE ") || $0.hasPrefix("COPY ") || $0.contains("issues.plist.") }, "\(requests)")
        #expect(requests.contains { $0.hasPrefix("HEAD /elsewhere/a-2/") }, "\(requests)")
        let (status, now) = try site.get("issues.plist")
        #expect(status == 200 && now == served, "the old catalog is still served")

        // The same folder with BaseURL back where --to is served publishes.
        try await rebase(site, to: site.nginx.baseURL.absoluteString)
        let fixed = await site.publish()
        #expect(fixed.status == 0, "\(fixed.stdout)\(fixed.stderr)")
        #expect(fixed.stdout.contains("verified"))
    }

    @Test func withFixedNamesItSaysWhatCannotBeCheckedBeforeTheSwitch() async throws {
        let site = try await PublishCommandTests.Site(fixedNames: true)
        defer { site.nginx.stop() }
        #expect(await site.publish().status == 0)
        try site.changeIssue("a-2")
        try await site.build()
        let result = await site.publish()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "check before the switch: 1 file(s) at \(site.nginx.baseURL.absoluteString) (one already served); not checkable before it: 5 file(s) replaced in place (--fixed-names), whose URLs serve the old bytes until the switch (verified after it)"
            ), "\(result.stdout)")

        // A wrong BaseURL is still found before the switch, through a file already served.
        let (_, served) = try site.get("issues.plist")
        let settings = site.magazine.appendingPathComponent("magazine.plist")
        let text = try String(contentsOf: settings, encoding: .utf8)
        try Data(
            text.replacingOccurrences(of: site.nginx.baseURL.absoluteString, with: site.nginx.baseURL.absoluteString + "nowhere/")
                .utf8
        )
        .write(to: settings)
        try await site.build()
        let wrong = await site.publish()
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("does not serve what was uploaded to"), "\(wrong.stderr)")
        #expect(try site.get("issues.plist").1 == served)
    }
}
