import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// A paid issue's EPUB is content like its bundles: built and published under `paid/<name>/`,
/// served by nginx's `secure_link` only signed, linked there by `opds.json` (relation `buy`,
/// covers public in `<name>/`), and checked by `publish --verify` signed and refused unsigned.
@Suite(.serialized, .timeLimit(.minutes(3)), .tags(.needsTools)) struct PaidChannelTests {
    typealias PaidSite = PaidIssueTests.PaidSite

    /// One publication of `opds.json`: its links (href, relation, type) and its images' hrefs.
    struct Publication {
        var links: [(href: String, rel: String, type: String)]
        var images: [String]
    }

    /// `opds.json`'s publications, by the issue folder their covers are in.
    static func publications(_ file: URL) throws -> [String: Publication] {
        let feed = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        var found: [String: Publication] = [:]
        for publication in feed?["publications"] as? [[String: Any]] ?? [] {
            let links = (publication["links"] as? [[String: Any]] ?? []).map {
                (href: $0["href"] as? String ?? "", rel: $0["rel"] as? String ?? "", type: $0["type"] as? String ?? "")
            }
            let images = (publication["images"] as? [[String: Any]] ?? []).compactMap { $0["href"] as? String }
            let folder = images.first.flatMap { URL(string: $0)?.deletingLastPathComponent().lastPathComponent } ?? ""
            found[folder] = Publication(links: links, images: images)
        }
        return found
    }

    @Test func aPaidIssuesEPUBIsPublishedUnderPaidServedOnlySignedAndLinkedThereByTheFeed() async throws {
        let site = try await PaidSite(feeds: ["epub", "opds"])
        defer { site.nginx.stop() }
        // The output: a-3's EPUB beside its bundles in paid/a-3/, none in a-3/; a-2's in a-2/.
        let paidEPUB = try ChannelChecks.file(endingIn: ".epub", in: site.output.appendingPathComponent("paid/a-3"))
        let own = try FileManager.default.contentsOfDirectory(atPath: site.output.appendingPathComponent("a-3").path)
        #expect(!own.contains { $0.hasSuffix(".epub") }, "\(own)")
        let freeEPUB = try ChannelChecks.file(endingIn: ".epub", in: site.output.appendingPathComponent("a-2"))

        // The feed links the paid EPUB and bundle under paid/ with `buy`, its covers in a-3/.
        let feed = site.output.appendingPathComponent("opds.json")
        #expect(try await ChannelChecks.opds([feed]).status == 0)
        let publications = try Self.publications(feed)
        let a3 = try #require(publications["a-3"])
        let bundle = try #require(site.catalog(site.output.appendingPathComponent("issues.plist"))["a-3"]?["Content"])
        let paidURL = site.base + "paid/a-3/" + paidEPUB.lastPathComponent
        let buy = "http://opds-spec.org/acquisition/buy"
        #expect(a3.links.map(\.href) == [paidURL, bundle] && a3.links.allSatisfy { $0.rel == buy }, "\(a3.links)")
        #expect(a3.links.first?.type == "application/epub+zip" && bundle.hasPrefix(site.base + "paid/a-3/"))
        #expect(a3.images.count == 2 && a3.images.allSatisfy { $0.hasPrefix(site.base + "a-3/cover.") }, "\(a3.images)")
        let a2 = try #require(publications["a-2"])
        let freeURL = site.base + "a-2/" + freeEPUB.lastPathComponent
        let openAccess = "http://opds-spec.org/acquisition/open-access"
        #expect(a2.links.first?.href == freeURL && a2.links.allSatisfy { $0.rel == openAccess }, "\(a2.links)")

        let result = await site.publish(["--secret-file", site.secretFile.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("(paid issues' content signed, and refused unsigned)"), "\(result.stdout)")
        let state = try PaidIssueTests.publishedPaths(in: site)
        #expect(state.contains("paid/a-3/\(paidEPUB.lastPathComponent)") && !state.contains("a-3/\(paidEPUB.lastPathComponent)"))
        #expect(try Data(contentsOf: site.htdocs.appendingPathComponent("opds.json")) == Data(contentsOf: feed))

        // nginx: the paid EPUB 403 unsigned, 200 signed (the built bytes); the free one and the
        // paid issue's covers and the feed public.
        #expect(try site.fetch(paidURL).status == 403)
        #expect(try site.fetch(paidURL, head: true).status == 403)
        let signed = await site.sign(paidURL)
        #expect(signed.status == 0, "\(signed.stderr)")
        let served = try site.fetch(signed.stdout.trimmingCharacters(in: .newlines))
        let (paidBytes, freeBytes) = (try Data(contentsOf: paidEPUB), try Data(contentsOf: freeEPUB))
        #expect(served.status == 200 && served.sha256 == SHA256.hex(of: paidBytes))
        let free = try site.fetch(freeURL)
        #expect(free.status == 200 && free.sha256 == SHA256.hex(of: freeBytes))
        for url in a3.images + [site.base + "opds.json"] {
            #expect(try site.fetch(url).status == 200, "\(url)")
        }
    }

    /// Verify asks for the paid EPUB signed (a missing one is a 404 behind a good signature, not
    /// secure_link's 403) and unsigned, which a host that does not protect paid/ answers.
    @Test func verifyChecksThePaidEPUBSignedAndThatItIsRefusedUnsigned() async throws {
        let site = try await PaidSite(feeds: ["epub", "opds"])
        defer { site.nginx.stop() }
        #expect(await site.publish(["--secret-file", site.secretFile.path]).status == 0)
        let name = try ChannelChecks.file(endingIn: ".epub", in: site.output.appendingPathComponent("paid/a-3")).lastPathComponent
        try FileManager.default.removeItem(at: site.htdocs.appendingPathComponent("paid/a-3/\(name)"))
        let missing = await site.publish(["--secret-file", site.secretFile.path])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("opds.json: \(site.base)paid/a-3/\(name): HTTP 404") && !missing.stderr.contains("md5="),
            "\(missing.stderr)")

        let open = try await PaidSite(hostSecret: nil, feeds: ["epub", "opds"])
        defer { open.nginx.stop() }
        let given = await open.publish(["--secret-file", open.secretFile.path])
        #expect(given.status == 1)
        let lines = given.stderr.split(separator: "\n")
        let refusal =
            ": answers 200 without a signature: the host gives this paid issue to anyone; protect paid/ with secure_link"
        #expect(
            lines.contains {
                $0.contains("opds.json: \(open.base)paid/a-3/") && $0.contains(".epub\(refusal)")
            }, "\(given.stderr)")
        #expect(lines.count == 3, "both sizes of a-3's bundle and its EPUB, each once: \(given.stderr)")
    }
}
