import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandPublish
import NewsstandTestSupport
import Testing

/// Publishing to a real S3 API (moto's server, `MotoS3`) through an rclone remote configured by
/// environment variables alone, and reading it back as a reader does, through the objects'
/// URLs: every object stored with its `Cache-Control` and `Content-Type` (`CacheRules`), the
/// publish contract (catalogs last, content names, `--prune`, a failure part-way restored, a
/// same-second republish seen), paid files refused unsigned and served presigned, and the lock
/// object that keeps a second publish out.
@Suite(.timeLimit(.minutes(3)), .tags(.needsServer)) struct S3PublishTests {
    @Test func everyObjectIsStoredWithItsHeadersAndTheCatalogGoesLast() async throws {
        let site = try S3Site(issues: ["f-1", "f-2", "f-3"], paid: ["f-3"])
        defer { site.moto.stop() }
        try await site.publish()
        let base = site.moto.objectURL(S3Site.folder + "/")
        let rules = CacheRules()

        let catalog = try await site.get("issues.plist")
        #expect(catalog.status == 200)
        #expect(catalog.header("Cache-Control") == "public, max-age=60")
        #expect(catalog.header("Content-Type") == "application/x-plist")
        let entries = try Catalog.decode(catalog.body).entries
        #expect(entries.map(\.name).sorted() == ["f-1", "f-2", "f-3"])
        for entry in entries {
            for retina in [false, true] {
                let cover = try await HTTPGet.send(URL(string: entry.coverURL(retina: retina))!)
                #expect(cover.status == 200 && cover.header("Content-Type") == "image/png")
                #expect(cover.header("Cache-Control") == "public, max-age=31536000, immutable")
                let content = entry.contentURL(retina: retina)
                let path = S3Site.path(of: content, base: base)
                guard entry.access == .paid else {
                    let bundle = try await HTTPGet.send(URL(string: content)!)
                    #expect(bundle.status == 200 && SHA256.hex(of: bundle.body) == entry.contentSHA256(retina: retina))
                    #expect(bundle.header("Cache-Control") == rules.headers(for: path).cacheControl)
                    #expect(bundle.header("Content-Type") == "application/zip")
                    let index = try await HTTPGet.send(URL(string: try #require(entry.contentIndexURL(retina: retina)))!)
                    #expect(index.status == 200 && index.header("Content-Type") == "application/json")
                    continue
                }
                // A paid file: refused to anyone, served presigned, and never to a shared cache.
                #expect(path.hasPrefix("paid/f-3/"))
                #expect(try await HTTPGet.send(URL(string: content)!).status == 403)
                let signed = try await HTTPGet.send(try site.presignedURL(path))
                #expect(signed.status == 200 && SHA256.hex(of: signed.body) == entry.contentSHA256(retina: retina))
                #expect(signed.header("Cache-Control") == "private, max-age=31536000, immutable")
            }
        }
        // The state file lists paid files: not served either; the lock object is gone.
        #expect(try await site.get(".newsstand-publish.json").status == 403)
        #expect(try await site.get(RcloneDestinationNames.lock).status != 200)

        // Catalogs last: the object issues.plist was written (its final copy) after every other.
        let writes = try await site.moto.requests().filter { $0.method == "PUT" && $0.status == 200 }
            .map { $0.path.split(separator: "/").dropFirst(2).joined(separator: "/") }
            .filter { !$0.isEmpty && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }
        #expect(writes.last == "issues.plist", "\(writes)")
        #expect(writes.filter { $0 == "issues.plist" }.count == 1)

        // Verification as publish --verify runs it: the headers served are the table's.
        let verifier = PublishVerifier(destination: try site.destination())
        #expect(await verifier.verifyHeaders(catalogURL: base.appendingPathComponent("issues.plist"), rules: rules) == [])
        // A cover uploaded again by hand, without them, is reported.
        let cover = S3Site.path(of: try #require(entries.first).coverURL(retina: false), base: base)
        let copied = try Shell.run(
            "env",
            [
                "-u", "AWS_CA_BUNDLE", "rclone", "copyto", "--ignore-times", site.built.appendingPathComponent(cover).path,
                "\(MotoS3.remote):\(site.moto.bucket)/\(S3Site.folder)/\(cover)",
            ], environment: site.moto.rcloneEnvironment)
        #expect(copied.status == 0, "\(copied.stderr)")
        let found = await verifier.verifyHeaders(catalogURL: base.appendingPathComponent("issues.plist"), rules: rules)
        #expect(found.count == 1 && found[0].contains("served with Cache-Control none"), "\(found)")
        let uploaded = try await site.publish()  // unchanged by its record: nothing is uploaded again
        #expect(uploaded.uploaded.isEmpty)
        // The paid issue's bundles through the bucket's own presigned URLs (no secure_link secret),
        // and refused unsigned at BaseURL.
        #expect(await verifier.verify() == [])
    }

    @Test func aSameSecondRepublishIsSeenAndPruneDeletes() async throws {
        let site = try S3Site(issues: ["f-1", "f-2"])
        defer { site.moto.stop() }
        try await site.publish(CacheRules(catalogMaxAge: 0))
        let old = try await site.get("issues.plist")
        #expect(old.header("Cache-Control") == "no-cache")
        let oldF2 = try #require(try site.builtEntries().first { $0.name == "f-2" })

        // f-1 changes and f-2 goes, within the same second: a reader holding the old catalog
        // asks with its validators and is given the new one (S3's ETag is the bytes' MD5).
        try site.fixture.image("f-1", "1-0.png", width: 11, height: 20)
        try FileManager.default.removeItem(at: site.fixture.root.appendingPathComponent("issues/f-2"))
        try FileManager.default.removeItem(at: site.built.appendingPathComponent("f-2"))
        try site.build()
        let report = try await site.publish(CacheRules(catalogMaxAge: 0), prune: true)
        var conditions = ["If-None-Match": try #require(old.header("ETag"))]
        conditions["If-Modified-Since"] = old.header("Last-Modified")
        let again = try await site.get("issues.plist", headers: conditions)
        #expect(again.status == 200 && again.body != old.body)
        #expect(try Catalog.decode(again.body).entries.map(\.name) == ["f-1"])

        // --prune deleted f-2's objects and f-1's replaced bundles: files no catalog refers to.
        #expect(report.deleted.count == 10 && report.deleted.filter { $0.hasPrefix("f-2/") }.count == 6, "\(report.deleted)")
        #expect(try await HTTPGet.send(URL(string: oldF2.contentURL(retina: false))!).status != 200)
        for entry in try Catalog.decode(again.body).entries {
            let bundle = try await HTTPGet.send(URL(string: entry.contentURL(retina: true))!)
            #expect(bundle.status == 200 && SHA256.hex(of: bundle.body) == entry.contentSHA256(retina: true))
        }
    }

    @Test func aFailurePartWayIsRestored() async throws {
        let site = try S3Site(issues: ["f-1"])
        defer { site.moto.stop() }
        try site.build(fixedNames: true)
        try await site.publish()
        let before = try await site.get("issues.plist")
        let bundle = try await site.get("f-1/f-1.zip")

        // Version 2 replaces f-1's bundles in place (fixed names); moving its catalog in fails,
        // after the bundles were switched: they are put back.
        try site.fixture.image("f-1", "1-0.png", width: 11, height: 20)
        try site.build(fixedNames: true)
        let failing = FailingMove(wrapped: try site.destination(), failingTo: "issues.plist")
        await #expect(throws: PublishError.self) { try await site.publish(to: failing) }
        #expect(failing.failed)
        let after = try await site.get("issues.plist")
        #expect(after.body == before.body)
        let served = try await site.get("f-1/f-1.zip")
        #expect(served.body == bundle.body)
        #expect(served.header("Cache-Control") == "no-cache" && served.header("Content-Type") == "application/zip")

        // Running it again finishes the job.
        try await site.publish()
        let entry = try #require(try Catalog.decode(try await site.get("issues.plist").body).entries.first)
        #expect(SHA256.hex(of: try await site.get("f-1/f-1.zip").body) == entry.contentSHA256(retina: false))
    }

    @Test func aLockObjectKeepsASecondPublishOut() async throws {
        let site = try S3Site(issues: ["f-1"])
        defer { site.moto.stop() }
        // moto honours If-None-Match: * on PutObject, as S3 does since 2024.
        let first = try #require(try await site.destination().lock(), "the store honours conditional writes")
        do {
            try await site.publish()
            Issue.record("a second publish ran while the first held the lock")
        } catch {
            #expect("\(error)".contains("another publish to this destination is running"), "\(error)")
            #expect("\(error)".contains("newsstand publish on"), "\(error)")
            #expect("\(error)".contains("Nothing that readers are served was changed"), "\(error)")
            #expect(!"\(error)".contains(MotoS3.secretKey) && !"\(error)".contains(MotoS3.accessKey))
        }
        #expect(try await site.get("issues.plist").status != 200)
        await first.release()
        try await site.publish()
        #expect(try await site.get("issues.plist").status == 200)
    }
}

/// The lock object's name, as the tests see it.
enum RcloneDestinationNames {
    static let lock = ".newsstand-publish.lock"
}

/// A destination that fails the first move onto `failingTo`, and passes everything else on.
final class FailingMove: PublishDestination {
    let wrapped: any PublishDestination
    let target: String
    private let state = Locked(false)
    var failed: Bool { state.current }

    init(wrapped: any PublishDestination, failingTo target: String) {
        self.wrapped = wrapped
        self.target = target
    }

    var description: String { wrapped.description }
    var supportsAtomicMove: Bool { wrapped.supportsAtomicMove }
    func read(_ path: String, limit: Int64) async throws(PublishError) -> Data? { try await wrapped.read(path, limit: limit) }
    func upload(_ source: UploadSource, to path: String) async throws(PublishError) { try await wrapped.upload(source, to: path) }
    func upload(_ source: UploadSource, to path: String, modified: Int) async throws(PublishError) {
        try await wrapped.upload(source, to: path, modified: modified)
    }
    func move(_ source: String, to destination: String) async throws(PublishError) {
        let fails =
            destination == target
            && state.withLock { failed in
                defer { failed = true }
                return !failed
            }
        if fails { throw PublishError(step: "move", target: destination, reason: .network("injected failure")) }
        try await wrapped.move(source, to: destination)
    }
    func copy(_ source: String, to destination: String) async throws(PublishError) -> Bool {
        try await wrapped.copy(source, to: destination)
    }
    func delete(_ path: String) async throws(PublishError) { try await wrapped.delete(path) }
    func modificationTime(of path: String) async throws(PublishError) -> Double? { try await wrapped.modificationTime(of: path) }
}
