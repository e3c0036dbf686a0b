import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandPublish
import NewsstandTestSupport
import Testing

/// A republished catalog must never be taken for the one it replaced. nginx makes `ETag`
/// (`"<mtime>-<size>"`) and `Last-Modified` from the file's time in whole seconds and its size,
/// and a rebuilt catalog usually keeps its size; so a catalog written in the same second as the
/// one it replaced, or at an earlier time than it (a clock behind, or a time an earlier publish
/// moved on), was answered `304 Not Modified` to readers holding the old one (an `If-Modified-
/// Since` is true only for a later time). Each destination gives the new catalog a time in a
/// later second than the served one's, and `publish --verify` checks it.
@Suite(.serialized, .tags(.needsServer)) struct CatalogValidatorTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case folder, webDAV, rclone
        var testDescription: String { rawValue }
    }

    /// What a static server answers for the catalog: the status, `ETag`, `Last-Modified` and body.
    struct Served {
        var status: Int
        var etag: String?
        var lastModified: String?
        var body: Data

        var modified: Date? {
            guard let lastModified else { return nil }
            let format = DateFormatter()
            format.locale = Locale(identifier: "en_US_POSIX")
            format.timeZone = TimeZone(identifier: "GMT")
            format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            return format.date(from: lastModified)
        }
    }

    /// A GET through curl (not our HTTP code), with the request headers given.
    static func get(_ url: URL, headers: [String] = []) throws -> Served {
        let folder = try Shell.temporaryFolder("validators")
        let body = folder.appendingPathComponent("body")
        let result = try Shell.run(
            "curl", ["-s", "-D", "-", "-o", body.path] + headers.flatMap { ["-H", $0] } + [url.absoluteString])
        let lines = result.stdout.components(separatedBy: "\r\n")
        let header = { (name: String) in
            lines.first { $0.lowercased().hasPrefix(name.lowercased() + ":") }.map {
                String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces)
            }
        }
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        return Served(
            status: status, etag: header("ETag"), lastModified: header("Last-Modified"),
            body: (try? Data(contentsOf: body)) ?? Data())
    }

    /// Replaces f-1's first image by another of the same size: new bundles of the same length,
    /// so the rebuilt catalog keeps its size (only hashes change).
    static func changeKeepingCatalogSize(_ site: ServedSite) throws {
        try site.fixture.write("issues/f-1/assets/1-0.png", MagazineFixture.png(width: 10, height: 20, seed: "other1"))
        try site.fixture.write("issues/f-1/assets/1-0@2x.png", MagazineFixture.png(width: 20, height: 40, seed: "other2"))
        try site.build()
    }

    static func destination(_ kind: Kind, _ site: ServedSite) throws -> any PublishDestination {
        switch kind {
        case .folder: LocalFolderDestination(root: site.nginx.root)
        case .webDAV: WebDAVDestination(root: site.nginx.baseURL.appendingPathComponent("dav/"), credentials: nil)
        case .rclone: try Destinations.parse("rclone::local:\(site.nginx.root.path)")
        }
    }

    /// The served catalog's time set to `seconds` (whole) since 1970.
    static func setServedTime(_ site: ServedSite, _ seconds: Int) throws {
        let path = site.nginx.root.appendingPathComponent("issues.plist").path
        var times = [timespec(tv_sec: seconds, tv_nsec: 0), timespec(tv_sec: seconds, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
    }

    @Test(arguments: Kind.allCases)
    func aRepublishedCatalogIsNeverTakenForTheOneItReplaced(_ kind: Kind) async throws {
        let site = try ServedSite(versioned: true)
        defer { site.stop() }
        let destination = try Self.destination(kind, site)
        _ = try await Publisher.publish(site.built, to: destination)
        // The served catalog's time a minute ahead (what the previous publish of a burst left, or a
        // clock ahead of this machine's): the new one must still be later.
        let ahead = Int(Date().timeIntervalSince1970) + 60
        try Self.setServedTime(site, ahead)
        let before = try Self.get(site.catalogURL)
        #expect(before.status == 200 && before.etag != nil && before.modified != nil, "\(before)")

        try Self.changeKeepingCatalogSize(site)
        let built = try Data(contentsOf: site.built.appendingPathComponent("issues.plist"))
        #expect(built.count == before.body.count && built != before.body, "the test needs a new catalog of the same size")
        _ = try await Publisher.publish(site.built, to: destination)

        let after = try Self.get(site.catalogURL)
        #expect(after.body == built)
        #expect(after.etag != before.etag, "\(after.etag ?? "") is the old ETag")
        let old = try #require(before.modified)
        let new = try #require(after.modified)
        #expect(new > old, "Last-Modified \(after.lastModified ?? "") is not after \(before.lastModified ?? "")")
        // A reader holding the old catalog asks with its validators and gets the new one.
        let revalidated = try Self.get(
            site.catalogURL, headers: ["If-None-Match: \(before.etag ?? "")", "If-Modified-Since: \(before.lastModified ?? "")"])
        #expect(revalidated.status == 200 && revalidated.body == built, "\(revalidated.status)")
    }

    /// `publish --verify`'s check: a conditional request with the replaced catalog's
    /// validators must be answered 200 with the new bytes; a server that answers 304 (here: the
    /// new catalog given the old one's time, as a destination that sets its own times might) is
    /// a problem, named.
    @Test func verifyReportsACatalogServedAsNotModified() async throws {
        let site = try ServedSite(versioned: true)
        defer { site.stop() }
        let destination = LocalFolderDestination(root: site.nginx.root)
        _ = try await Publisher.publish(site.built, to: destination)
        let verifier = PublishVerifier(destination: destination)
        let catalogURL = try #require(
            try await Publisher(destination: destination, prune: false).plan(builtFolder: site.built).catalogURL)
        #expect(catalogURL == site.catalogURL)
        let old = try #require(await verifier.validators(of: catalogURL))
        let oldTime = try FileStatus.of(site.nginx.root.appendingPathComponent("issues.plist").path).modified

        try Self.changeKeepingCatalogSize(site)
        let plan = try await Publisher(destination: destination, prune: false).plan(builtFolder: site.built)
        _ = try await Publisher(destination: destination, prune: false).run(plan)
        #expect(
            await verifier.verifyReplaced(catalogURL, previous: old, sha256: try #require(plan.catalogs.first?.sha256)).isEmpty)

        try Self.setServedTime(site, Int(oldTime))
        let problems = await verifier.verifyReplaced(catalogURL, previous: old, sha256: try #require(plan.catalogs.first?.sha256))
        #expect(problems.count == 1 && problems[0].contains("304 Not Modified"), "\(problems)")
    }
}
