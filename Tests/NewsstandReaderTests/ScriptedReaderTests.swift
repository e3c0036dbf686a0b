import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// The reader's logic with no server: a library over `ScriptedTransport` (in memory) refreshes,
/// downloads, resumes a cut download with `Range` + `If-Range`, reports a 404 and refuses a
/// bundle whose SHA-256 is not the catalog's. The bundles are content-named the way `newsstand
/// build` names them (`a-1.4acee772.zip`, `a-1.4acee772@2x.zip`), so a `@2x` rule that split
/// at the first dot would fetch a URL nothing serves. The same paths run on nginx with libcurl
/// and URLSession in the download suites; these are the fast tier's (`make test-fast`).
@Suite("Reader on a scripted transport", .timeLimit(.minutes(1)))
struct ScriptedReaderTests {
    /// One test's world: the transport, a library folder, and what was published.
    struct World {
        let transport = ScriptedTransport()
        let folder: URL
        var entries: [CatalogEntry] = []
        var served: [String: Data] = [:]

        init() throws { folder = try Shell.temporaryFolder("scripted-library") }

        /// Publishes an issue named `name` with content-named bundles of `imageBytes` bytes of
        /// image, and writes the catalog.
        mutating func publish(_ name: String, day: Int, imageBytes: Int = 6000, seed: UInt64 = 1) {
            let tag = "4acee77\(seed % 10)"
            for (scale, suffix) in [("", ".\(tag).zip"), ("@2x", ".\(tag)@2x.zip")] {
                let bundle = StoredZip.make([
                    ("issue.plist", Data("<plist><dict/></plist>".utf8)),
                    ("pages.plist", Data("<plist><array/></plist>".utf8)),
                    ("1-0\(scale).png", StoredZip.noise(count: imageBytes, seed: seed)),
                ])
                transport.serve(bundle, at: "\(name)/\(name)\(suffix)")
                served["\(name)/\(name)\(suffix)"] = bundle
            }
            transport.serve(Data("cover \(name)".utf8), at: "\(name)/cover.v2.png")
            transport.serve(Data("cover@2x \(name)".utf8), at: "\(name)/cover.v2@2x.png")
            let base = transport.baseURL.absoluteString + name + "/"
            var entry = CatalogEntry(
                name: name, title: "Issue \(name)", date: Date(timeIntervalSince1970: Double(day) * 86_400),
                cover: base + "cover.v2.png", content: base + "\(name).\(tag).zip")
            let normal = body(of: "\(name)/\(name).\(tag).zip")
            let retina = body(of: "\(name)/\(name).\(tag)@2x.zip")
            entry.contentSize = normal.count
            entry.contentSHA256 = SHA256.hex(of: normal)
            entry.retinaContentSize = retina.count
            entry.retinaContentSHA256 = SHA256.hex(of: retina)
            entries.removeAll { $0.name == name }
            entries.append(entry)
            writeCatalog()
        }

        func writeCatalog() { transport.serve(Catalog.encode(entries), at: "issues.plist") }

        /// The bytes published at `path`.
        func body(of path: String) -> Data { served[path] ?? Data() }

        var catalogURL: URL { transport.url("issues.plist") }

        func library(scale: LibraryScale = .normal) throws -> IssueLibrary {
            var configuration = LibraryConfiguration()
            configuration.transport = transport
            configuration.retryDelay = 0.01
            configuration.lockTimeout = 5
            return try IssueLibrary(folder: folder, scale: scale, configuration: configuration)
        }

        func close() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test func refreshListsIssuesNewestFirstFetchesCoversAndAnUnchangedCatalogCostsA304() async throws {
        var world = try World()
        defer { world.close() }
        world.publish("a-1", day: 1)
        world.publish("a-2", day: 2, seed: 2)
        let library = try world.library(scale: .retina)
        let first = try await library.refresh(from: world.catalogURL)
        #expect(first.added == ["a-1", "a-2"])
        #expect(first.problems.isEmpty)
        let issues = await library.issues
        #expect(issues.map(\.name) == ["a-2", "a-1"])
        let cover = try #require(issues[0].coverFileURL)
        #expect(try String(contentsOf: cover, encoding: .utf8) == "cover@2x a-2", "cover.v2.png's @2x is cover.v2@2x.png")

        let second = try await library.refresh()
        #expect(second.notModified)
        #expect(world.transport.requests("issues.plist").map(\.status) == [200, 304])
        #expect(world.transport.requests("a-2/cover.v2@2x.png").count == 1, "an unchanged cover is not fetched again")
        await library.close()
    }

    @Test(arguments: [LibraryScale.normal, .retina])
    func aCutDownloadResumesFromWhereItStoppedAndInstalls(scale: LibraryScale) async throws {
        var world = try World()
        defer { world.close() }
        world.publish("a-1", day: 1, imageBytes: 20_000)
        let path = scale.isRetina ? "a-1/a-1.4acee771@2x.zip" : "a-1/a-1.4acee771.zip"
        world.transport.inject(.cutAfter(bytes: 7_000), at: path)
        let library = try world.library(scale: scale)
        try await library.refresh(from: world.catalogURL)
        let issue = try await library.download("a-1")
        #expect(issue.status == .available)
        #expect(issue.installedScale == scale)
        let requests = world.transport.requests(path)
        #expect(requests.map(\.status) == [200, 206])
        #expect(requests.map(\.range) == [nil, "bytes=7000-"])
        #expect(requests[0].bodyBytes + requests[1].bodyBytes == world.body(of: path).count, "no byte was fetched twice")
        let image = issue.contentURL.appendingPathComponent(scale.isRetina ? "1-0@2x.png" : "1-0.png")
        #expect(try Data(contentsOf: image) == StoredZip.noise(count: 20_000, seed: 1))
        await library.close()
    }

    @Test func a404FailsAtOnceWithoutRetriesAndKeepsTheIssueListed() async throws {
        var world = try World()
        defer { world.close() }
        world.publish("a-1", day: 1)
        world.transport.remove("a-1/a-1.4acee771.zip")
        let library = try world.library()
        try await library.refresh(from: world.catalogURL)
        let url = world.transport.url("a-1/a-1.4acee771.zip").absoluteString
        await #expect(throws: LibraryError.downloadHTTPStatus(name: "a-1", url: url, status: 404)) {
            try await library.download("a-1")
        }
        #expect(world.transport.requests("a-1/a-1.4acee771.zip").map(\.status) == [404])
        #expect(await library.issue(named: "a-1")?.status == IssueStatus.none)
        await library.close()
    }

    @Test func serverErrorsAreRetriedThenReported() async throws {
        var world = try World()
        defer { world.close() }
        world.publish("a-1", day: 1)
        let path = "a-1/a-1.4acee771.zip"
        world.transport.inject(.status(503), at: path)
        world.transport.inject(.status(503), at: path)
        let library = try world.library()
        try await library.refresh(from: world.catalogURL)
        let issue = try await library.download("a-1")
        #expect(issue.status == .available)
        #expect(world.transport.requests(path).map(\.status) == [503, 503, 200])
        await library.close()
    }

    @Test func aChecksumMismatchDeletesTheDownloadAndInstallsNothing() async throws {
        var world = try World()
        defer { world.close() }
        world.publish("a-1", day: 1)
        world.entries[0].contentSHA256 = String(repeating: "0", count: 64)
        world.writeCatalog()
        let library = try world.library()
        try await library.refresh(from: world.catalogURL)
        let error = await #expect(throws: LibraryError.self) { try await library.download("a-1") }
        guard case .verificationFailed(let name, let path, _)? = error else {
            Issue.record("expected a verification failure, got \(String(describing: error))")
            return
        }
        #expect(name == "a-1")
        #expect(!FileManager.default.fileExists(atPath: path), "the bad download is deleted, not kept for a resume")
        let issue = try #require(await library.issue(named: "a-1"))
        #expect(issue.status == .none)
        #expect(!FileManager.default.fileExists(atPath: issue.contentURL.path))
        await library.close()
    }
}
