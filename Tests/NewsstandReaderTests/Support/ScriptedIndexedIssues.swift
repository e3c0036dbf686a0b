import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport

extension StoredZip {
    /// The bundle index (issue 14) of the stored zip of `entries`, as `newsstand build` writes
    /// it and in the canonical JSON of `BundleIndex.encoded()` (the same key order and layout as
    /// the Python indexer of the nginx suites): for each file entry in local-header order, its
    /// name, size, SHA-256, CRC-32, method, and the offsets of its local header and data, worked
    /// out from the layout `make` writes (checked against the archive's bytes), not by the
    /// reader's code.
    static func index(of entries: [Entry]) -> Data {
        let archive = make(entries)
        var out = "{\"format\":\"newsstand-bundle-index\",\"version\":1,\n"
        out += "\"bundle\":{\"size\":\(archive.count),\"sha256\":\"\(SHA256.hex(of: archive))\"},\n\"entries\":["
        var offset = 0
        var first = true
        for entry in entries {
            let name = Data(entry.name.utf8)
            let bytes = entry.bytes
            let header = offset
            let data = header + 30 + name.count
            offset = data + bytes.count
            precondition(archive[header..<header + 4] == Data([0x50, 0x4b, 0x03, 0x04]), "not a local header at \(header)")
            precondition(archive[(header + 30)..<data] == name, "not \(entry.name)'s name at \(header + 30)")
            if entry.name.hasSuffix("/") { continue }
            out += first ? "\n" : ",\n"
            first = false
            let quoted = entry.name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            out += "{\"name\":\"\(quoted)\",\"size\":\(bytes.count),\"sha256\":\"\(SHA256.hex(of: bytes))\","
            out +=
                "\"crc32\":\(crc32(bytes)),\"method\":\"stored\",\"header\":\(header),\"data\":\(data),\"length\":\(bytes.count)}"
        }
        out += "\n]}\n"
        return Data(out.utf8)
    }
}

/// Issues published with their bundle indexes (issue 14), as `newsstand build` writes them:
/// `<name>.index.json` beside `<name>.zip` (and the `@2x` pair), the catalog giving each
/// index's URL, size and SHA-256.
extension ScriptedBed {
    /// A bundle of `issue.plist`, `pages.plist` and one incompressible image per page
    /// (`page-<n>.png`, `imageBytes` bytes from `seed`), in the order given.
    static func pagedBundle(_ pages: [(page: Int, seed: Int)], imageBytes: Int = 64 << 10, scale: String = "")
        -> [StoredZip.Entry]
    {
        [.text("issue.plist", "<plist><dict/></plist>"), .text("pages.plist", "<plist><array/></plist>")]
            + pages.map { .random("page-\($0.page)\(scale).png", count: imageBytes, seed: $0.seed) }
    }

    /// An issue spec whose two bundles hold `pages`.
    static func paged(_ name: String, _ pages: [(page: Int, seed: Int)], location: String = "") -> IssueSpec {
        IssueSpec(name, day: 1, normal: pagedBundle(pages), retina: pagedBundle(pages, scale: "@2x"), location: location)
    }

    /// Publishes `specs` with indexes; `tamper` may rewrite an index's text (the catalog then
    /// gives the tampered file's size and SHA-256, as a lying publisher's would).
    @discardableResult
    func publishIndexed(_ specs: [IssueSpec], tamper: (String, inout String) -> Void = { _, _ in }) throws -> [CatalogEntry] {
        var entries = try publish(specs)
        for (i, spec) in specs.enumerated() {
            let base = baseURL.absoluteString + spec.location + spec.name + "/"
            let indexName = "\(spec.name).index.json"
            var normal = String(decoding: StoredZip.index(of: spec.normal), as: UTF8.self)
            tamper(spec.name, &normal)
            let retina = StoredZip.index(of: spec.retina)
            serve(Data(normal.utf8), at: "\(spec.name)/\(indexName)")
            serve(retina, at: "\(spec.name)/\(RetinaName.of(indexName))")
            entries[i].contentIndex = base + indexName
            entries[i].contentIndexSize = normal.utf8.count
            entries[i].contentIndexSHA256 = SHA256.hex(of: Data(normal.utf8))
            entries[i].retinaContentIndexSize = retina.count
            entries[i].retinaContentIndexSHA256 = SHA256.hex(of: retina)
        }
        try writeCatalog(entries)
        return entries
    }

    /// Bytes sent for a bundle, by status (200 whole, 206 ranges), and the requests.
    func bundleTraffic(_ path: String) -> (whole: Int, ranges: Int, requests: [LoggedRequest]) {
        let requests = self.requests(path)
        return (
            requests.filter { $0.status == 200 }.reduce(0) { $0 + $1.bytesSent },
            requests.filter { $0.status == 206 }.reduce(0) { $0 + $1.bytesSent }, requests
        )
    }

    /// Which of two bundles the issue's content folder holds, file for file and byte for byte
    /// (its installed index aside): "old", "new", or "mixed or damaged: <its files>".
    func installedVersion(of name: String, old: [StoredZip.Entry], new: [StoredZip.Entry]) throws -> String {
        let folder = libraryFolder.appendingPathComponent("Issues/\(name)")
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(folder.standardizedFileURL.path.count + 1))
            if relative != ".newsstand-index.json" { files[relative] = try Data(contentsOf: url) }
        }
        for (label, entries) in [("old", old), ("new", new)] {
            let expected = Dictionary(entries.compactMap(\.file).map { ($0.name, $0.bytes) }, uniquingKeysWith: { a, _ in a })
            if files == expected { return label }
        }
        return "mixed or damaged: " + files.keys.sorted().joined(separator: ", ")
    }
}
