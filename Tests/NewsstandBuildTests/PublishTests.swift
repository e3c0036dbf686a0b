import Foundation
import NewsstandBuild
import NewsstandFormat
import NewsstandTestSupport
import Testing

/// Publishing to a local folder and to an rclone remote; the WebDAV destination is tested
/// against nginx in `WebDAVPublishTests`.
@Suite struct PublishTests {
    private func build(_ fixture: MagazineFixture, into output: URL) throws {
        let (magazine, plans) = try fixture.plans()
        _ = try MagazineBuilder(magazine: magazine, options: BuildOptions(output: output, jobs: 2)).build(plans)
    }

    private func publish(_ built: URL, to destination: any PublishDestination, prune: Bool = false) async throws -> PublishReport
    {
        let publisher = Publisher(destination: destination, prune: prune)
        return try await publisher.run(try await publisher.plan(builtFolder: built))
    }

    /// Every file the published catalog names exists at the destination with the catalog's size.
    private func expectConsistent(_ root: URL) throws {
        let (entries, problems) = try Catalog.decode(Data(contentsOf: root.appendingPathComponent("issues.plist")))
        #expect(problems.isEmpty)
        for entry in entries {
            for retina in [false, true] {
                for url in [entry.contentURL(retina: retina), entry.coverURL(retina: retina)] {
                    let path = String(url.dropFirst("https://example.com/mag/".count))
                    #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path), "\(path) is missing")
                }
                let bundle = root.appendingPathComponent(
                    String(entry.contentURL(retina: retina).dropFirst("https://example.com/mag/".count)))
                #expect(
                    try FileManager.default.attributesOfItem(atPath: bundle.path)[.size] as? Int
                        == entry.contentSize(retina: retina))
            }
        }
    }

    @Test func publishesEverythingThenOnlyWhatChanged() async throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder()
        try build(fixture, into: built)
        let destination = LocalFolderDestination(root: site)

        var report = try await publish(built, to: destination)
        #expect(report.uploaded.count == 8)
        #expect(report.replacedCatalogs == ["issues.plist"])
        try expectConsistent(site)

        report = try await publish(built, to: destination)
        #expect(report.uploaded.isEmpty && report.replacedCatalogs.isEmpty && report.unchanged == 9)

        try fixture.image("f-2", "1-0.png", width: 11, height: 20)
        try build(fixture, into: built)
        report = try await publish(built, to: destination)
        #expect(report.uploaded == ["f-2/f-2.zip", "f-2/f-2@2x.zip"])
        #expect(report.replacedCatalogs == ["issues.plist"])
        try expectConsistent(site)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func pruneDeletesOnlyWhatAnEarlierPublishPutThereAfterTheCatalog() async throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder()
        try Data("mine".utf8).write(to: site.appendingPathComponent("index.html"))
        try build(fixture, into: built)
        let destination = LocalFolderDestination(root: site)
        _ = try await publish(built, to: destination)

        try FileManager.default.removeItem(at: fixture.url("issues/f-1"))
        try build(fixture, into: built)
        var report = try await publish(built, to: destination)
        #expect(report.deleted.isEmpty)
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("f-1/f-1.zip").path))

        report = try await publish(built, to: destination, prune: true)
        #expect(Set(report.deleted) == ["f-1/f-1.zip", "f-1/f-1@2x.zip", "f-1/cover.png", "f-1/cover@2x.png"])
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("f-1/f-1.zip").path))
        #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent("index.html").path))
        try expectConsistent(site)
    }

    @Test func aFailureMidwayLeavesTheOldCatalogWorkingAndARerunFinishes() async throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder()
        try build(fixture, into: built)
        let local = LocalFolderDestination(root: site)
        _ = try await publish(built, to: local)
        let oldCatalog = try Data(contentsOf: site.appendingPathComponent("issues.plist"))

        try fixture.image("f-1", "1-0.png", width: 12, height: 20)
        try fixture.image("f-2", "1-0.png", width: 12, height: 20)
        try build(fixture, into: built)
        let failing = FailingDestination(wrapped: local, failAfterUploads: 2)
        await #expect(throws: PublishError.self) { _ = try await publish(built, to: failing) }
        #expect(try Data(contentsOf: site.appendingPathComponent("issues.plist")) == oldCatalog)
        // Bundles replaced so far sit beside the old catalog; the ones it names still exist.
        try expectConsistentNames(site)

        let report = try await publish(built, to: local)
        #expect(report.replacedCatalogs == ["issues.plist"])
        try expectConsistent(site)
    }

    private func expectConsistentNames(_ root: URL) throws {
        let (entries, _) = try Catalog.decode(Data(contentsOf: root.appendingPathComponent("issues.plist")))
        for entry in entries {
            for url in [entry.content, entry.contentURL(retina: true), entry.cover, entry.coverURL(retina: true)] {
                #expect(
                    FileManager.default.fileExists(
                        atPath: root.appendingPathComponent(String(url.dropFirst("https://example.com/mag/".count))).path))
            }
        }
    }

    @Test func dryRunPlansWithoutChangingAnything() async throws {
        let fixture = try MagazineFixture()
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder()
        try build(fixture, into: built)
        let plan = try await Publisher(destination: LocalFolderDestination(root: site), prune: false).plan(builtFolder: built)
        #expect(plan.uploads.count == 4)
        #expect(plan.catalogs.map(\.path) == ["issues.plist"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.path).isEmpty)
    }

    @Test func rcloneRemote() async throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder()
        try build(fixture, into: built)
        // rclone's on-the-fly local backend: the same code path as an S3 or SFTP remote.
        let destination = try Destinations.parse("rclone::local:\(site.path)")
        #expect(!destination.supportsAtomicMove)
        var report = try await publish(built, to: destination)
        #expect(report.uploaded.count == 8)
        try expectConsistent(site)
        report = try await publish(built, to: destination)
        #expect(report.uploaded.isEmpty && report.replacedCatalogs.isEmpty)
        try FileManager.default.removeItem(at: fixture.url("issues/f-2"))
        try build(fixture, into: built)
        report = try await publish(built, to: destination, prune: true)
        #expect(report.deleted.count == 4)
        try expectConsistent(site)
    }

    @Test func credentialsComeFromNetrcOrTheEnvironment() throws {
        let netrc =
            "machine other.example login a password b\nmachine dav.example.com\n  login alice\n  password s3cret\ndefault login d password e\n"
        let folder = try Shell.temporaryFolder()
        try netrc.write(to: folder.appendingPathComponent("netrc"), atomically: true, encoding: .utf8)
        let url = URL(string: "https://dav.example.com/mag/")!
        #expect(
            HTTPCredentials.find(for: url, environment: ["NETRC": folder.appendingPathComponent("netrc").path])
                == HTTPCredentials(user: "alice", password: "s3cret"))
        #expect(
            HTTPCredentials.find(
                for: URL(string: "https://x.example/")!, environment: ["NETRC": folder.appendingPathComponent("netrc").path])
                == HTTPCredentials(user: "d", password: "e"))
        #expect(
            HTTPCredentials.find(
                for: url, environment: ["NEWSSTAND_USER": "u", "NEWSSTAND_PASSWORD": "p", "NETRC": "/nonexistent"])
                == HTTPCredentials(user: "u", password: "p"))
    }
}

/// A destination that fails every upload after the first few, to test interrupted publishes.
struct FailingDestination: PublishDestination {
    let wrapped: any PublishDestination
    let counter = UploadCounter()
    let failAfterUploads: Int
    var description: String { "failing \(wrapped.description)" }
    var supportsAtomicMove: Bool { wrapped.supportsAtomicMove }

    init(wrapped: any PublishDestination, failAfterUploads: Int) {
        self.wrapped = wrapped
        self.failAfterUploads = failAfterUploads
    }

    func read(_ path: String) async throws(PublishError) -> Data? { try await wrapped.read(path) }
    func upload(_ file: URL, to path: String) async throws(PublishError) {
        guard counter.next() <= failAfterUploads else {
            throw PublishError(step: "upload", target: path, reason: "injected failure")
        }
        try await wrapped.upload(file, to: path)
    }
    func move(_ source: String, to destination: String) async throws(PublishError) {
        try await wrapped.move(source, to: destination)
    }
    func delete(_ path: String) async throws(PublishError) { try await wrapped.delete(path) }
}

final class UploadCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func next() -> Int {
        lock.withLock {
            count += 1
            return count
        }
    }
}
