import Foundation

/// Indexes a zip bundle the way issue 14's `build` does, with tools we did not write (Python's
/// `zipfile` and `hashlib`): for each file entry in local-header order, its name, size, SHA-256,
/// CRC-32, method, the offsets of its local header and data, and its data's length. Returns the
/// index as the canonical JSON of `BundleIndex.encoded()` (the same key order and layout), so
/// tests can also tamper with it as text.
public enum BundleIndexFixture {
    private static let script = #"""
        import hashlib, json, struct, sys, zipfile
        path = sys.argv[1]
        data = open(path, "rb").read()
        entries = []
        with zipfile.ZipFile(path) as z:
            for info in sorted(z.infolist(), key=lambda i: i.header_offset):
                if info.filename.endswith("/"):
                    continue
                h = info.header_offset
                assert data[h:h+4] == b"PK\x03\x04"
                n, m = struct.unpack("<HH", data[h+26:h+30])
                method = {0: "stored", 8: "deflated"}[info.compress_type]
                entries.append({"name": info.filename, "size": info.file_size,
                                "sha256": hashlib.sha256(z.read(info)).hexdigest(), "crc32": info.CRC,
                                "method": method, "header": h, "data": h + 30 + n + m, "length": info.compress_size})
        out = '{"format":"newsstand-bundle-index","version":1,\n'
        out += '"bundle":{"size":%d,"sha256":"%s"},\n"entries":[' % (len(data), hashlib.sha256(data).hexdigest())
        for i, e in enumerate(entries):
            out += "\n" if i == 0 else ",\n"
            out += ('{"name":%s,"size":%d,"sha256":"%s","crc32":%d,"method":"%s","header":%d,"data":%d,"length":%d}'
                    % (json.dumps(e["name"], ensure_ascii=False), e["size"], e["sha256"], e["crc32"], e["method"],
                       e["header"], e["data"], e["length"]))
        out += "\n]}\n"
        sys.stdout.write(out)
        """#

    /// The index of the zip at `bundle`.
    public static func index(of bundle: URL) throws -> Data {
        let result = try Shell.run("python3", ["-c", script, bundle.path])
        guard result.status == 0 else { throw TestFailure("indexing \(bundle.path) failed: \(result.stderr)") }
        return Data(result.stdout.utf8)
    }
}
