import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport

/// Issues published with their bundle indexes (issue 14), as `newsstand build` will write them:
/// `<name>.index.json` beside `<name>.zip` (and the `@2x` pair), the catalog giving each index's
/// URL, size and SHA-256. The indexes are made by Python from the zips as served.
extension Testbed {
    /// A bundle of `issue.plist`, `pages.plist` and one incompressible image per page
    /// (`page-<n>.png`, `imageBytes` bytes from `seed`), in the order given.
    static func pagedBundle(_ pages: [(page: Int, seed: Int)], imageBytes: Int = 64 << 10, scale: String = "") -> [ZipFixture
        .Entry]
    {
        [.text("issue.plist", "<plist><dict/></plist>"), .text("pages.plist", "<plist><array/></plist>")]
            + pages.map { .random("page-\($0.page)\(scale).png", count: imageBytes, seed: $0.seed) }
    }

    /// An issue spec whose two bundles hold `pages`.
    static func paged(_ name: String, _ pages: [(page: Int, seed: Int)], location: String = "") -> IssueSpec {
        IssueSpec(
            name, day: 1, normal: pagedBundle(pages), retina: pagedBundle(pages, scale: "@2x"), location: location)
    }

    /// Publishes `specs` with indexes; `tamper` may rewrite an index's text (the catalog then
    /// gives the tampered file's size and SHA-256, as a lying publisher's would).
    @discardableResult
    func publishIndexed(_ specs: [IssueSpec], tamper: (String, inout String) -> Void = { _, _ in }) throws -> [CatalogEntry] {
        var entries = try publish(specs)
        for (i, spec) in specs.enumerated() {
            let folder = nginx.root.appendingPathComponent(spec.name)
            let base = nginx.baseURL.absoluteString + spec.location + spec.name + "/"
            let indexName = "\(spec.name).index.json"
            var normal = String(
                decoding: try BundleIndexFixture.index(of: folder.appendingPathComponent("\(spec.name).zip")), as: UTF8.self)
            tamper(spec.name, &normal)
            let retina = try BundleIndexFixture.index(of: folder.appendingPathComponent("\(spec.name)@2x.zip"))
            try Data(normal.utf8).write(to: folder.appendingPathComponent(indexName))
            try retina.write(to: folder.appendingPathComponent(RetinaName.of(indexName)))
            entries[i].contentIndex = base + indexName
            entries[i].contentIndexSize = normal.utf8.count
            entries[i].contentIndexSHA256 = SHA256.hex(of: Data(normal.utf8))
            entries[i].retinaContentIndexSize = retina.count
            entries[i].retinaContentIndexSHA256 = SHA256.hex(of: retina)
        }
        try writeCatalog(entries)
        return entries
    }

    /// Rewrites the served normal bundle of `entries[0]` with Python's `zipfile` (every entry
    /// as `compression` gives it: "stored" or "deflated", at zlib `level`), indexes it again and
    /// lists it in the catalog, as a newsstand or zlib upgrade republishing the same files would.
    func repack(_ entries: [CatalogEntry], compression: String, level: Int = 1) throws {
        var entries = entries
        let name = entries[0].name
        let bundle = nginx.root.appendingPathComponent("\(name)/\(name).zip")
        let result = try Shell.python(
            """
            import sys, zipfile
            path, method, level = sys.argv[1], sys.argv[2], int(sys.argv[3])
            with zipfile.ZipFile(path) as z:
                files = [(i.filename, z.read(i)) for i in z.infolist()]
            kind = {"stored": zipfile.ZIP_STORED, "deflated": zipfile.ZIP_DEFLATED}[method]
            with zipfile.ZipFile(path, "w") as z:
                for filename, data in files:
                    z.writestr(zipfile.ZipInfo(filename), data, compress_type=kind, compresslevel=level)
            """, [bundle.path, compression, String(level)])
        guard result.status == 0 else { throw TestFailure("repacking failed: \(result.stderr)") }
        let index = try BundleIndexFixture.index(of: bundle)
        let indexName = "\(name).index.json"
        try index.write(to: nginx.root.appendingPathComponent("\(name)/\(indexName)"))
        entries[0].contentSize = try Data(contentsOf: bundle).count
        entries[0].contentSHA256 = try SHA256.hex(ofFileAt: bundle)
        entries[0].contentIndexSize = index.count
        entries[0].contentIndexSHA256 = SHA256.hex(of: index)
        try writeCatalog(entries)
    }

    /// Bytes nginx sent for a bundle, by status (200 whole, 206 ranges), and the requests.
    func bundleTraffic(_ path: String) -> (whole: Int, ranges: Int, requests: [LoggedRequest]) {
        let requests = nginx.requests().filter { $0.uri == "/" + path }
        return (
            requests.filter { $0.status == 200 }.reduce(0) { $0 + $1.bytesSent },
            requests.filter { $0.status == 206 }.reduce(0) { $0 + $1.bytesSent }, requests
        )
    }
}
