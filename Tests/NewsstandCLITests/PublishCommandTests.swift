import Foundation
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// `newsstand publish` to a real nginx WebDAV endpoint, as a publisher would run it (in process).
@Suite(.serialized, .tags(.needsServer)) struct PublishCommandTests {
    /// A copy of the sample whose BaseURL points at `nginx`, built into `output`.
    struct Site {
        let nginx: Nginx
        let magazine: URL
        let output: URL
        var dav: String { nginx.baseURL.absoluteString + "dav/" }

        let fixedNames: Bool

        init(fixedNames: Bool = false) async throws {
            nginx = try Nginx()
            let work = try Shell.temporaryFolder("publish")
            magazine = try nginx.sampleMagazine(in: work)
            output = work.appendingPathComponent("out")
            self.fixedNames = fixedNames
            try await build()
        }

        func build() async throws {
            let result = await InProcess.newsstand(
                ["build", magazine.path, "--output", output.path, "--feed", "shelf"] + (fixedNames ? ["--fixed-names"] : []))
            guard result.status == 0 else { throw TestFailure("build failed: \(result.stdout) \(result.stderr)") }
        }

        func publish(_ extra: String..., to destination: String? = nil, environment: [String: String] = [:]) async
            -> Shell.Result
        {
            await publish(arguments: extra, to: destination, environment: environment)
        }

        func publish(arguments extra: [String], to destination: String?, environment: [String: String]) async -> Shell.Result {
            await InProcess.newsstand(
                ["publish", output.path, "--to", destination ?? dav] + extra,
                environment: ["NETRC": "/nonexistent"].merging(environment) { _, new in new })
        }

        /// The five files an issue's build wrote (bundles and covers in both sizes, the Baker book), as `a-1/<file>`.
        func files(of issue: String) throws -> [String] {
            let manifest =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: output.appendingPathComponent("\(issue)/.newsstand/manifest.json"))) as? [String: Any]
            return ["bundle", "retinaBundle", "cover", "retinaCover", "hpub", "index", "retinaIndex"].compactMap { key in
                ((manifest?[key] as? [String: Any])?["file"] as? String).map { "\(issue)/\($0)" }
            }
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

    @Test func publishRepublishChangePrune() async throws {
        let site = try await Site()
        defer { site.nginx.stop() }
        var result = await site.publish()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("published: 21 uploaded, 2 catalog(s) replaced"))
        #expect(result.stdout.contains("verified"))
        let catalogPuts = site.puts().filter { !$0.contains("/a-") }
        let firstCatalogPut = try #require(site.puts().firstIndex { $0.contains("issues.plist") })
        #expect(
            site.puts()[firstCatalogPut...].allSatisfy { !$0.contains("/a-") }, "catalogs must be uploaded after every bundle")
        #expect(
            catalogPuts.allSatisfy { $0.hasSuffix(".tmp") || $0.hasSuffix(".new") },
            "catalogs go under temporary names, then move")
        let (status, catalog) = try site.get("issues.plist")
        #expect(status == 200)
        #expect(try Catalog.decode(catalog).entries.count == 3)

        let before = site.puts().count
        result = await site.publish()
        #expect(result.stdout.contains("published: 0 uploaded, 0 catalog(s) replaced, 0 deleted, 23 unchanged"))
        #expect(site.puts().count == before)

        // Content-versioned names (the default): a changed issue's bundles go up under new names.
        let oldA2 = try site.files(of: "a-2")
        try site.changeIssue("a-2")
        try await site.build()
        let newA2 = try site.files(of: "a-2")
        #expect(oldA2[0] != newA2[0] && oldA2[2] == newA2[2] && oldA2[4] != newA2[4], "new bundle and book names, the same cover")
        result = await site.publish()
        #expect(result.status == 0)
        // --verify (the default here) asked as a reader holding the replaced catalog would.
        #expect(result.stdout.contains("the replaced catalog's validators get the new one (200, not 304)"), "\(result.stdout)")
        let uploaded = site.puts()[before...].filter { !$0.hasSuffix(".tmp") && !$0.hasSuffix(".new") }
        #expect(Set(uploaded) == Set([newA2[0], newA2[1], newA2[4], newA2[5], newA2[6]].map { "/dav/" + $0 }))  // + indexes
        #expect(try site.get(oldA2[0]).0 == 200, "the old bundle stays until --prune")
        #expect(try site.get(oldA2[4]).0 == 200 && site.get(newA2[4]).0 == 200, "both books are served")

        try FileManager.default.removeItem(at: site.magazine.appendingPathComponent("issues/a-3"))
        let a3 = try site.files(of: "a-3")
        try await site.build()
        let dryRun = await site.publish("--prune", "--dry-run")
        #expect(dryRun.stdout.contains("would delete \(a3[0])"))
        #expect(dryRun.stdout.contains("would delete \(oldA2[0])"))
        #expect(try site.get(a3[0]).0 == 200)
        result = await site.publish("--prune")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("12 deleted"))  // a-3's 7 files, a-2's old bundles, indexes and book
        #expect(try site.get(a3[0]).0 == 404 && site.get(a3[4]).0 == 404)
        #expect(try site.get(oldA2[0]).0 == 404 && site.get(oldA2[4]).0 == 404)
        #expect(try Catalog.decode(site.get("issues.plist").1).entries.map(\.name) == ["a-2", "a-1"])
    }

    @Test func fixedNamesAreStagedAndSwappedInJustBeforeTheCatalog() async throws {
        let site = try await Site(fixedNames: true)
        defer { site.nginx.stop() }
        #expect(await site.publish().status == 0)
        #expect(
            try site.files(of: "a-2") == [
                "a-2/a-2.zip", "a-2/a-2@2x.zip", "a-2/cover.png", "a-2/cover@2x.png", "a-2/a-2.hpub", "a-2/a-2.index.json",
                "a-2/a-2.index@2x.json",
            ])
        try site.changeIssue("a-2")
        try await site.build()
        let dryRun = await site.publish("--dry-run")
        #expect(dryRun.stdout.contains("would replace in place a-2/a-2.zip"))
        let before = site.nginx.requests().count
        let result = await site.publish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("published: 0 uploaded, 5 replaced in place, 1 catalog(s) replaced"))
        let requests = site.nginx.requests()[before...].map { "\($0.method) \($0.uri)" }
        // Staged under hidden names, then: keep the old one aside, move the new one in; catalogs last.
        let swap = try #require(requests.firstIndex { $0.hasPrefix("MOVE /dav/a-2/.a-2.zip.") })
        #expect(requests[swap - 1].hasPrefix("COPY /dav/a-2/a-2.zip"))
        let catalogMove = try #require(requests.firstIndex { $0.hasPrefix("MOVE /dav/.issues.plist.") })
        #expect(swap < catalogMove)
        #expect(!requests.contains("PUT /dav/a-2/a-2.zip"), "a served file is never overwritten by an upload")
        let served = try ServedMagazine.check(catalog: site.nginx.baseURL.appendingPathComponent("issues.plist"))
        #expect(served.problems.isEmpty, "\(served.problems)")
    }

    @Test func aFailedUploadLeavesThePublishedCatalogWorkingAndARerunFinishes() async throws {
        let site = try await Site()
        defer { site.nginx.stop() }
        #expect(await site.publish().status == 0)
        let (_, oldCatalog) = try site.get("issues.plist")

        try site.changeIssue("a-1")
        try site.changeIssue("a-2")
        try await site.build()
        // Block the new a-2 bundle's name with a folder, so its upload fails mid-publish.
        let manifest =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: site.output.appendingPathComponent("a-2/.newsstand/manifest.json"))) as? [String: Any]
        let newBundle = try #require((manifest?["bundle"] as? [String: Any])?["file"] as? String)
        let blocker = site.nginx.root.appendingPathComponent("a-2/\(newBundle)")
        try FileManager.default.createDirectory(at: blocker, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: blocker.appendingPathComponent("keep"))

        let failed = await site.publish()
        #expect(failed.status == 1)
        #expect(failed.stderr.contains(newBundle))
        #expect(failed.stderr.contains("Nothing that readers are served was changed"))
        #expect(try site.get("issues.plist").1 == oldCatalog)
        for entry in try Catalog.decode(oldCatalog).entries {
            for url in [entry.content, entry.contentURL(retina: true), entry.cover, entry.coverURL(retina: true)] {
                #expect(try site.get(String(url.dropFirst(site.nginx.baseURL.absoluteString.count))).0 == 200, "\(url)")
            }
        }

        try FileManager.default.removeItem(at: blocker)
        let rerun = await site.publish()
        #expect(rerun.status == 0, "\(rerun.stderr)")
        #expect(rerun.stdout.contains("verified"))
        #expect(
            try Catalog.decode(site.get("issues.plist").1).entries.first { $0.name == "a-2" }?.content.hasSuffix(newBundle)
                == true)
    }

    /// A bundle edited in the built folder with its size kept: publish refuses it, and its
    /// advice works as given. A plain build trusts its records and keeps the edited file (so
    /// "rebuild the issue" alone sent the user round in a circle); `--force` makes it anew.
    @Test func aBundleEditedInPlaceIsRefusedAndTheAdviceRepairsIt() async throws {
        let site = try await Site()
        defer { site.nginx.stop() }
        let bundle = site.output.appendingPathComponent(try #require(site.files(of: "a-1").first))
        var bytes = try Data(contentsOf: bundle)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: bundle)
        let folder = try Shell.temporaryFolder("publish").appendingPathComponent("site")
        let refused = await site.publish(to: folder.path)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("the build manifest says "), "\(refused.stderr)")
        #expect(
            refused.stderr.contains(
                "build the issue again with --force (newsstand build <magazine> --output <built-folder> --issue <name> --force)"),
            "\(refused.stderr)")
        // Without --force the build keeps the edited file, and publish still refuses it.
        try await site.build()
        #expect(await site.publish(to: folder.path).status == 1)
        let rebuilt = await InProcess.newsstand(
            ["build", site.magazine.path, "--output", site.output.path, "--issue", "a-1", "--force", "--feed", "shelf"])
        #expect(rebuilt.status == 0, "\(rebuilt.stdout)\(rebuilt.stderr)")
        let published = await site.publish(to: folder.path)
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
    }
}
