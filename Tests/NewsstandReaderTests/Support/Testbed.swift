import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport

/// One test's world: a real nginx serving a catalog and bundles built in the test, and a
/// temporary library folder. `close()` stops nginx and removes every file.
final class Testbed: @unchecked Sendable {
    let nginx: Nginx
    let libraryFolder: URL

    /// With a `secureLinkSecret`, nginx serves `/paid/` and `/slowpaid/` only signed with it.
    init(secureLinkSecret: String? = nil) throws {
        nginx = try Nginx(secureLinkSecret: secureLinkSecret)
        libraryFolder = try Shell.temporaryFolder("library")
    }

    func close() {
        nginx.stop()
        try? FileManager.default.removeItem(at: libraryFolder)
    }

    /// Runs `body` with a fresh testbed and always cleans up.
    static func with<T>(secureLinkSecret: String? = nil, _ body: (Testbed) async throws -> T) async throws -> T {
        let testbed = try Testbed(secureLinkSecret: secureLinkSecret)
        defer { testbed.close() }
        return try await body(testbed)
    }

    var catalogURL: URL { nginx.baseURL.appendingPathComponent("issues.plist") }

    /// A library over this testbed's folder with fast retries.
    func library(
        scale: LibraryScale = .normal, transport: Transport = .platformDefault,
        _ configure: (inout LibraryConfiguration) -> Void = { _ in }
    ) throws -> IssueLibrary {
        var configuration = LibraryFolderCheck.configuration(transport: transport.transport)
        configure(&configuration)
        return try IssueLibrary(folder: libraryFolder, scale: scale, configuration: configuration)
    }

    /// An issue to publish: bundle contents for both scales and where the bundle is served.
    struct IssueSpec {
        var name: String
        var day: Int
        var normal: [ZipFixture.Entry]
        var retina: [ZipFixture.Entry]
        /// The location prefix the catalog points the bundle at: "", "slow/" (100 KB/s), "paced/" (5 MB/s),
        /// "norange/", "broken/".
        var location = ""
        var withChecksums = true

        init(
            _ name: String, day: Int, normal: [ZipFixture.Entry]? = nil, retina: [ZipFixture.Entry]? = nil, location: String = ""
        ) {
            self.name = name
            self.day = day
            self.normal = normal ?? Self.pages(scale: "")
            self.retina = retina ?? Self.pages(scale: "@2x")
            self.location = location
        }

        /// A small valid bundle: issue.plist, pages.plist and an image.
        static func pages(scale: String, imageBytes: Int = 4096, seed: Int = 1) -> [ZipFixture.Entry] {
            [
                .text("issue.plist", "<plist><dict/></plist>"),
                .text("pages.plist", "<plist><array/></plist>"),
                .random("1-0\(scale).png", count: imageBytes, seed: seed),
            ]
        }
    }

    /// Writes bundles and covers under nginx's root and returns catalog entries for them
    /// (sizes and SHA-256 computed from the files as served).
    @discardableResult
    func publish(_ specs: [IssueSpec], catalog extra: [CatalogEntry] = []) throws -> [CatalogEntry] {
        var entries: [CatalogEntry] = []
        for spec in specs {
            let folder = nginx.root.appendingPathComponent(spec.name)
            let normal = folder.appendingPathComponent("\(spec.name).zip")
            let retina = folder.appendingPathComponent("\(spec.name)@2x.zip")
            try? FileManager.default.removeItem(at: normal)
            try? FileManager.default.removeItem(at: retina)
            try ZipFixture.make(at: normal, entries: spec.normal)
            try ZipFixture.make(at: retina, entries: spec.retina)
            try Data("cover \(spec.name)".utf8).write(to: folder.appendingPathComponent("cover.png"))
            try Data("cover@2x \(spec.name)".utf8).write(to: folder.appendingPathComponent("cover@2x.png"))
            let base = nginx.baseURL.absoluteString + spec.location + spec.name + "/"
            var entry = CatalogEntry(
                name: spec.name, title: "Issue \(spec.name)", date: Date(timeIntervalSince1970: Double(spec.day) * 86_400),
                cover: base + "cover.png", content: base + "\(spec.name).zip")
            if spec.withChecksums {
                entry.contentSize = try Data(contentsOf: normal).count
                entry.contentSHA256 = try SHA256.hex(ofFileAt: normal)
                entry.retinaContentSize = try Data(contentsOf: retina).count
                entry.retinaContentSHA256 = try SHA256.hex(ofFileAt: retina)
            }
            entries.append(entry)
        }
        try writeCatalog(entries + extra)
        return entries
    }

    /// Writes `issues.plist` with `Catalog.encode`.
    func writeCatalog(_ entries: [CatalogEntry]) throws {
        let url = nginx.root.appendingPathComponent("issues.plist")
        let temporary = nginx.root.appendingPathComponent(".issues.plist.tmp")
        try Catalog.encode(entries).write(to: temporary)
        // A new mtime for the new content, so nginx's ETag changes even within one second.
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(Double.random(in: 10...100_000))], ofItemAtPath: temporary.path)
        _ = rename(temporary.path, url.path)
    }

    /// Requests nginx logged for a path below its root.
    func requests(_ path: String, atLeast count: Int = 1) -> [LoggedRequest] {
        nginx.requests(for: "/" + path, atLeast: count)
    }
}
