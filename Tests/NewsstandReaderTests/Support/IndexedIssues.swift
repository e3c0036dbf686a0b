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
    static func pagedBundle(_ pages: [(page: Int, seed: Int)], imageBytes: Int = 64 << 10, scale: String = "") -> [ZipFixture.Entry] {
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
            var normal = String(decoding: try BundleIndexFixture.index(of: folder.appendingPathComponent("\(spec.name).zip")), as: UTF8.self)
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

    /// Bytes nginx sent for a bundle, by status (200 whole, 206 ranges), and the requests.
    func bundleTraffic(_ path: String) -> (whole: Int, ranges: Int, requests: [LoggedRequest]) {
        let requests = nginx.requests().filter { $0.uri == "/" + path }
        return (
            requests.filter { $0.status == 200 }.reduce(0) { $0 + $1.bytesSent },
            requests.filter { $0.status == 206 }.reduce(0) { $0 + $1.bytesSent }, requests
        )
    }
}
