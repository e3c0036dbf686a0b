import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandPublish
import NewsstandTestSupport
import Testing

/// A magazine published to S3 (moto) and read through a real cache in front of the bucket
/// (`Varnish`, configured as a CDN is by default: it honours `Cache-Control`, no per-path
/// rule): readers see a new catalog at once when catalogs are `no-cache` (revalidated through
/// the cache), one origin request serves every reader within a catalog's `max-age`,
/// content-named files are served from the cache without going back to the origin, and a
/// paid file is never stored by the cache. Counts, never clocks: origin requests are moto's
/// request log.
@Suite(.timeLimit(.minutes(3)), .tags(.needsServer)) struct CDNCacheTests {
    /// moto, Varnish in front of it, and the fixture whose BaseURL is the cache's.
    struct CachedSite {
        let site: S3Site
        let varnish: Varnish
        var base: URL { varnish.baseURL.appendingPathComponent("\(site.moto.bucket)/\(S3Site.folder)/") }

        init(issues: [String], paid: Set<String> = []) throws {
            // The cache's port is known only once it runs, and it needs moto's: BaseURL is set
            // after both are up (the fixture is built again).
            site = try S3Site(issues: issues, paid: paid)
            varnish = try Varnish(originPort: site.moto.port)
            let settings = site.fixture.root.appendingPathComponent("magazine.plist")
            try String(contentsOf: settings, encoding: .utf8).replacingOccurrences(
                of: site.moto.objectURL(S3Site.folder + "/").absoluteString, with: base.absoluteString
            ).write(to: settings, atomically: true, encoding: .utf8)
            try site.build()
        }

        func stop() {
            varnish.stop()
            site.moto.stop()
        }

        /// `path` of the magazine, asked for through the cache.
        func get(_ path: String, headers: [String: String] = [:]) async throws -> HTTPGet.Response {
            try await HTTPGet.send(URL(string: base.absoluteString + path)!, headers: headers)
        }

        /// GETs of the magazine's `path` that reached the origin.
        func originGets(_ path: String) async throws -> Int {
            let key = "/\(site.moto.bucket)/\(S3Site.folder)/\(path)"
            return try await site.moto.requests().filter { $0.method == "GET" && $0.path == key }.count
        }
    }

    @Test func aNoCacheCatalogIsRevalidatedAndContentIsServedFromTheCache() async throws {
        let cached = try CachedSite(issues: ["f-1"], paid: [])
        defer { cached.stop() }
        try await cached.site.publish(CacheRules(catalogMaxAge: 0))

        // A reader's refresh: the catalog, then its covers; then a second reader's.
        let first = try await cached.get("issues.plist")
        #expect(first.status == 200 && first.header("Cache-Control") == "no-cache")
        let entry = try #require(try Catalog.decode(first.body).entries.first)
        let coverPath = S3Site.path(of: entry.coverURL(retina: true), base: cached.base)
        let bundlePath = S3Site.path(of: entry.contentURL(retina: true), base: cached.base)
        for _ in 0..<3 {
            let cover = try await cached.get(coverPath)
            #expect(cover.status == 200 && cover.header("Content-Type") == "image/png")
            let bundle = try await cached.get(bundlePath)
            #expect(bundle.status == 200 && SHA256.hex(of: bundle.body) == entry.contentSHA256(retina: true))
        }
        // Content-named files: fetched from the origin once, then served from the cache.
        #expect(try await cached.originGets(coverPath) == 1)
        #expect(try await cached.originGets(bundlePath) == 1)

        // A reader holding the catalog revalidates: 304 while it is the same.
        let etag = try #require(first.header("ETag"))
        #expect(try await cached.get("issues.plist", headers: ["If-None-Match": etag]).status == 304)

        // After a publish, the same reader is given the new catalog at once (no-cache: every
        // request goes to the origin), and every file it lists is served through the cache.
        try cached.site.fixture.addIssue("f-2", day: 2)
        try cached.site.build()
        try await cached.site.publish(CacheRules(catalogMaxAge: 0))
        let next = try await cached.get("issues.plist", headers: ["If-None-Match": etag])
        #expect(next.status == 200)
        let entries = try Catalog.decode(next.body).entries
        #expect(entries.map(\.name).sorted() == ["f-1", "f-2"])
        for entry in entries {
            let bundle = try await cached.get(S3Site.path(of: entry.contentURL(retina: false), base: cached.base))
            #expect(bundle.status == 200 && SHA256.hex(of: bundle.body) == entry.contentSHA256(retina: false))
        }
    }

    @Test func oneOriginRequestServesEveryReaderWithinMaxAgeAndPaidFilesAreNeverStored() async throws {
        let cached = try CachedSite(issues: ["f-1", "f-2"], paid: ["f-2"])
        defer { cached.stop() }
        // A day, so that no expiry can fall between the requests below.
        try await cached.site.publish(CacheRules(catalogMaxAge: 86_400))
        // (publish itself reads the catalog back through rclone: those are not readers.)
        let published = try await cached.originGets("issues.plist")
        for _ in 0..<5 {
            let catalog = try await cached.get("issues.plist")
            #expect(catalog.status == 200 && catalog.header("Cache-Control") == "public, max-age=86400")
        }
        #expect(try await cached.originGets("issues.plist") == published + 1)

        // A paid file, presigned by the bucket's credentials and asked for through the cache:
        // served each time, stored never (private), so each request reaches the origin.
        let entry = try #require(try cached.site.builtEntries().first { $0.name == "f-2" })
        let path = S3Site.path(of: entry.contentURL(retina: false), base: cached.base)
        #expect(path.hasPrefix("paid/"))
        let signed = try cached.site.presignedURL(path)
        var through = URLComponents(url: signed, resolvingAgainstBaseURL: false)!
        through.port = cached.varnish.port
        #expect(try await cached.get(path).status == 403)
        for _ in 0..<3 {
            let bundle = try await HTTPGet.send(through.url!)
            #expect(bundle.status == 200 && SHA256.hex(of: bundle.body) == entry.contentSHA256(retina: false))
            #expect(bundle.header("Cache-Control") == "private, max-age=31536000, immutable")
        }
        #expect(try await cached.originGets(path) == 4)
    }
}
