import Foundation
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// `newsstand publish` to a real nginx WebDAV endpoint, as a publisher would run it.
@Suite(.serialized) struct PublishCommandTests {
    /// A copy of the sample whose BaseURL points at `nginx`, built into `output`.
    struct Site {
        let nginx: Nginx
        let magazine: URL
        let output: URL
        var dav: String { nginx.baseURL.absoluteString + "dav/" }

        init(versioned: Bool = false) throws {
            nginx = try Nginx()
            let work = try Shell.temporaryFolder("publish")
            magazine = try nginx.sampleMagazine(in: work)
            output = work.appendingPathComponent("out")
            try build(versioned: versioned)
        }

        func build(versioned: Bool = false) throws {
            let result = try Shell.run(
                Shell.newsstand,
                ["build", magazine.path, "--output", output.path, "--feed", "shelf"] + (versioned ? ["--versioned"] : []))
            guard result.status == 0 else { throw TestFailure("build failed: \(result.stdout) \(result.stderr)") }
        }

        func publish(_ extra: String...) throws -> Shell.Result {
            try Shell.run(Shell.newsstand, ["publish", output.path, "--to", dav] + extra)
        }

        func get(_ path: String) throws -> (Int, Data) {
            let result = try Shell.python(
                """
                import sys, urllib.request, urllib.error
                try:
                    r = urllib.request.urlopen(sys.argv[1]); sys.stdout.buffer.write(b'200\\n' + r.read())
                except urllib.error.HTTPError as e:
                    print(e.code)
                """, [nginx.baseURL.absoluteString + path])
            let data = Data(result.stdout.utf8)
            let status = Int(result.stdout.prefix(3)) ?? 0
            return (status, data.dropFirst(4))
        }

        func puts() -> [String] { nginx.requests().filter { $0.method == "PUT" }.map(\.uri) }

        /// Replaces one page image of `issue` with another of the same size, so the issue changes.
        func changeIssue(_ issue: String) throws {
            let assets = magazine.appendingPathComponent("issues/\(issue)/assets")
            for suffix in ["", "@2x"] {
                let target = assets.appendingPathComponent("1-0\(suffix).png")
                try FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(at: assets.appendingPathComponent("2-0\(suffix).png"), to: target)
            }
        }
    }

    @Test func publishRepublishChangePrune() throws {
        let site = try Site()
        defer { site.nginx.stop() }
        var result = try site.publish()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("published: 12 uploaded, 2 catalog(s) replaced"))
        #expect(result.stdout.contains("verified"))
        let catalogPuts = site.puts().filter { !$0.contains("/a-") }
        let firstCatalogPut = try #require(site.puts().firstIndex { !$0.contains("/a-") })
        #expect(
            site.puts()[firstCatalogPut...].allSatisfy { !$0.contains("/a-") }, "catalogs must be uploaded after every bundle")
        #expect(catalogPuts.allSatisfy { $0.hasSuffix(".tmp") }, "catalogs are uploaded under temporary names, then moved")
        let (status, catalog) = try site.get("issues.plist")
        #expect(status == 200)
        #expect(try Catalog.decode(catalog).entries.count == 3)

        let before = site.puts().count
        result = try site.publish()
        #expect(result.stdout.contains("published: 0 uploaded, 0 catalog(s) replaced, 0 deleted, 14 unchanged"))
        #expect(site.puts().count == before)

        try site.changeIssue("a-2")
        try site.build()
        result = try site.publish()
        #expect(result.status == 0)
        let uploaded = site.puts()[before...].filter { !$0.hasSuffix(".tmp") }
        #expect(Set(uploaded) == ["/dav/a-2/a-2.zip", "/dav/a-2/a-2@2x.zip"])

        try FileManager.default.removeItem(at: site.magazine.appendingPathComponent("issues/a-3"))
        try site.build()
        let dryRun = try site.publish("--prune", "--dry-run")
        #expect(dryRun.stdout.contains("would delete a-3/a-3.zip"))
        #expect(try site.get("a-3/a-3.zip").0 == 200)
        result = try site.publish("--prune")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("4 deleted"))
        #expect(try site.get("a-3/a-3.zip").0 == 404)
        #expect(try Catalog.decode(site.get("issues.plist").1).entries.map(\.name) == ["a-2", "a-1"])
    }

    @Test func aFailedUploadLeavesThePublishedCatalogWorkingAndARerunFinishes() throws {
        let site = try Site(versioned: true)
        defer { site.nginx.stop() }
        #expect(try site.publish().status == 0)
        let (_, oldCatalog) = try site.get("issues.plist")

        try site.changeIssue("a-1")
        try site.changeIssue("a-2")
        try site.build(versioned: true)
        // Block the new a-2 bundle's name with a folder, so its upload fails mid-publish.
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: site.output.appendingPathComponent("a-2/.newsstand/manifest.json"))) as? [String: Any]
        let newBundle = try #require((manifest?["bundle"] as? [String: Any])?["file"] as? String)
        let blocker = site.nginx.root.appendingPathComponent("a-2/\(newBundle)")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: blocker.appendingPathComponent("keep"))

        let failed = try site.publish()
        #expect(failed.status == 1)
        #expect(failed.stderr.contains(newBundle))
        #expect(try site.get("issues.plist").1 == oldCatalog)
        for entry in try Catalog.decode(oldCatalog).entries {
            for url in [entry.content, entry.contentURL(retina: true), entry.cover, entry.coverURL(retina: true)] {
                #expect(try site.get(String(url.dropFirst(site.nginx.baseURL.absoluteString.count))).0 == 200, "\(url)")
            }
        }

        try FileManager.default.removeItem(at: blocker)
        let rerun = try site.publish()
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("verified"))
        #expect(
            try Catalog.decode(site.get("issues.plist").1).entries.first { $0.name == "a-2" }?.content.hasSuffix(newBundle)
                == true)
    }
}
