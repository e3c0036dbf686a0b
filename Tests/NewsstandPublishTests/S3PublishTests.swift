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
        // An object appears only once whole: each upload goes straight to its name, never through
        // a hidden `.upload` object and a server-side move (a copy of every byte, and a delete).
        let hidden = try await site.moto.requests().map(\.path).filter { $0.hasSuffix(".upload") }
        #expect(hidden.isEmpty, "\(hidden)")

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

    /// The lock a publish killed two hours ago left (as the version before expiry wrote it, its
    /// one line): the next publish says it is stale, takes it over and publishes, and its own
    /// lock is gone after.
    @Test func aStaleLockFromADeadPublishIsTakenOver() async throws {
        let site = try S3Site(issues: ["f-1"])
        defer { site.moto.stop() }
        let killed = PlistDate.format(Date().addingTimeInterval(-2 * 3600))
        try site.writeLock("written by newsstand publish on ci-runner-7, process 4242, at \(killed)\n")
        let lines = Locked<[String]>([])
        try await site.publish { line in lines.withLock { $0.append(line) } }
        let notice = try #require(lines.current.first, "\(lines.current)")
        #expect(notice.hasPrefix("lock: took over the stale lock object"), "\(notice)")
        #expect(notice.contains("written by newsstand publish on ci-runner-7, process 4242, at \(killed)"), "\(notice)")
        #expect(notice.contains("not renewed for 2 h 0 min") && notice.contains("--lock-timeout"), "\(notice)")
        #expect(try await site.get("issues.plist").status == 200)
        #expect(try await site.lockText() == nil, "released")
    }

    /// A lock renewed a minute ago (a publish running on another machine) keeps a publish out,
    /// and the refusal says when it expires if it is not renewed; nothing is changed.
    @Test func aFreshLockStillKeepsAPublishOut() async throws {
        let site = try S3Site(issues: ["f-1"])
        defer { site.moto.stop() }
        let now = Date()
        let text =
            "written by newsstand publish on ci-runner-7, process 4242, at \(PlistDate.format(now.addingTimeInterval(-7200)))\n"
            + "renewed at \(PlistDate.format(now.addingTimeInterval(-60)))\ntoken other\n"
        try site.writeLock(text)
        let error = try #require(await #expect(throws: PublishError.self) { try await site.publish() })
        let message = "\(error)"
        #expect(message.contains("another publish to this destination is running"), "\(message)")
        #expect(message.contains("last renewed at \(PlistDate.format(now.addingTimeInterval(-60)))"), "\(message)")
        #expect(message.contains("publish again after \(PlistDate.format(now.addingTimeInterval(3600 - 60)))"), "\(message)")
        #expect(try await site.get("issues.plist").status != 200)
        #expect(try await site.lockText() == text, "left as it was")
    }

    /// Two publishes that find the same stale lock at once: the store takes one's conditional
    /// write (If-Match on the stale lock's ETag) and refuses the other's, which is told the
    /// winner holds the lock.
    @Test func ofTwoPublishesFindingOneStaleLockOnlyOneTakesIt() async throws {
        let site = try S3Site(issues: ["f-1"])
        defer { site.moto.stop() }
        try site.writeLock(
            "written by newsstand publish on ci-runner-7, process 4242, at \(PlistDate.format(Date().addingTimeInterval(-7200)))\n"
        )
        let destination = try site.destination()
        let takers = (0..<2).map { _ in
            Task { () async -> Result<(any PublishLock)?, PublishError> in
                do throws(PublishError) { return .success(try await destination.lock()) } catch { return .failure(error) }
            }
        }
        var won: [any PublishLock] = []
        var refused: [PublishError] = []
        for taker in takers {
            switch await taker.value {
            case .success(let lock?): won.append(lock)
            case .success(nil): Issue.record("no lock taken: moto honours conditional writes")
            case .failure(let error): refused.append(error)
            }
        }
        #expect(won.count == 1 && refused.count == 1, "won \(won.count), refused: \(refused)")
        for error in refused {
            guard case .lockedObject(let holder, _, _) = error.reason else {
                Issue.record("refused for another reason: \(error)")
                continue
            }
            #expect(holder.contains("process \(getpid())"), "the winner holds it: \(holder)")
        }
        let text = try #require(try await site.lockText())
        #expect(text.contains("process \(getpid())") && !text.contains("ci-runner-7"))
        for lock in won { await lock.release() }
        #expect(try await site.lockText() == nil)
    }

    /// A publish that runs longer than the limit renews its lock, so another publish with the
    /// same limit is kept out; a holder whose lock another took over (it went unrenewed: a
    /// machine asleep) is told before it switches anything in, and does not delete the other's.
    @Test func aHeldLockIsRenewedAndALostOneIsNoticed() async throws {
        let site = try S3Site(issues: ["f-1"])
        defer { site.moto.stop() }
        // A limit of 30 s: renewed every 6 s (and each renewal's three rclone runs can take
        // seconds on a loaded machine: the limit leaves room for that).
        let destination = try site.destination(timeouts: PublishTimeouts(lock: 30))
        let held = try #require(try await destination.lock())
        try await Task.sleep(nanoseconds: 40_000_000_000)
        await #expect(throws: PublishError.self, "renewed: still fresh after longer than the limit") {
            _ = try await destination.lock()
        }
        try await held.confirm()
        let renewed = try #require(try await site.lockText())
        #expect(renewed.contains("renewed at"))

        let other =
            "written by newsstand publish on ci-runner-7, process 4242, at \(PlistDate.format(Date()))\ntoken other\n"
        try site.writeLock(other)
        do {
            try await held.confirm()
            Issue.record("a lock another publish holds was confirmed")
        } catch {
            guard case .lockLost = error.reason else {
                Issue.record("\(error)")
                return
            }
        }
        await held.release()
        #expect(try await site.lockText() == other, "the other publish's lock is left")
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
