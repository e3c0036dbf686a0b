import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandTestSupport
import Testing

/// The hashes a build promises readers, computed from the bytes as they are written (the
/// archive's SHA-256 and its stored entries' read back on the zip writer's feed thread, each
/// deflated entry's from its content as it is packed):
/// checked against Python's hashlib over the files on disk, with images large enough to cross
/// the feed's and the packer's 256 KB blocks, and the bundles checked by `unzip -t`, `bsdtar`
/// and Python's `zipfile`.
@Suite(.tags(.needsTools)) struct WrittenHashesTests {
    /// A PNG header for the validator, then `size` bytes that differ by `seed` and from one
    /// 4 KB block to the next (stored, as a magazine's images are).
    private static func image(width: Int, height: Int, size: Int, seed: UInt64) -> Data {
        var data = MagazineFixture.png(width: width, height: height)
        var block = (0..<4096).map { UInt8(truncatingIfNeeded: (UInt64($0) &* 2_654_435_761) ^ seed) }
        var left = size
        var count = UInt32(0)
        while left > 0 {
            withUnsafeBytes(of: count.littleEndian) { block.replaceSubrange(0..<4, with: $0) }
            data.append(contentsOf: block.prefix(left))
            left -= min(left, block.count)
            count += 1
        }
        return data
    }

    @Test func theCatalogsAndIndexesHashesAreHashlibsOfTheWrittenFiles() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        // Sizes around the 256 KB blocks: one short of two blocks, one past, a big one.
        for (issue, sizes) in [("f-1", [(1 << 19) - 1, (1 << 18) + 1]), ("f-2", [3 << 20, 17])] {
            for (file, size) in zip(["1-0.png", "2-0.png"], sizes) {
                try fixture.write(
                    "issues/\(issue)/assets/\(file)", Self.image(width: 10, height: 20, size: size, seed: UInt64(size)))
                try fixture.write(
                    "issues/\(issue)/assets/\(RetinaName.of(file))", Self.image(width: 20, height: 40, size: 2 * size, seed: 7))
            }
        }
        let (magazine, plans) = try fixture.plans()
        let output = try Shell.temporaryFolder()
        _ = try MagazineBuilder(magazine: magazine, options: BuildOptions(output: output, jobs: 2, versioned: true)).build(plans)
        // Python alone: the catalog by plistlib, the files by hashlib, the entries by zipfile, and
        // the index's entries compared with them.
        let script = """
            import hashlib, json, os, plistlib, sys, zipfile
            out = sys.argv[1]
            def sha(path): return hashlib.sha256(open(path, 'rb').read()).hexdigest()
            for e in plistlib.load(open(os.path.join(out, 'issues.plist'), 'rb')):
                normal = os.path.join(out, e['Content'].split('/mag/', 1)[1])
                # The @2x bundle's URL is the Content URL by the @2x rule.
                for key, path in (('Content', normal), ('RetinaContent', normal[:-len('.zip')] + '@2x.zip')):
                    assert e[key + 'SHA256'] == sha(path), (key, path)
                    assert e[key + 'Size'] == os.path.getsize(path)
                    index_path = path[:-len('.zip')] + '.index.json' if key == 'Content' else \\
                        path[:-len('@2x.zip')] + '.index@2x.json'
                    index = json.load(open(index_path))
                    assert index['bundle']['sha256'] == sha(path), index_path
                    with zipfile.ZipFile(path) as z:
                        assert z.testzip() is None
                        entries = {i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()}
                    assert {x['name']: x['sha256'] for x in index['entries']} == entries, index_path
                    print(e['Name'], key, len(entries), os.path.getsize(path))
            """
        let checked = try Shell.python(script, [output.path])
        #expect(checked.status == 0, "\(checked.stderr)")
        let lines = checked.stdout.split(separator: "\n")
        #expect(lines.count == 4, "\(checked.stdout)")
        let bundles = try FileManager.default.subpathsOfDirectory(atPath: output.path).filter { $0.hasSuffix(".zip") }
        #expect(bundles.count == 4)
        for bundle in bundles {
            let path = output.appendingPathComponent(bundle).path
            let unzip = try Shell.run("unzip", ["-tq", path])
            #expect(unzip.status == 0, "\(bundle): \(unzip.stdout)")
            let bsdtar = try Shell.run("bsdtar", ["-xOf", path])
            #expect(bsdtar.status == 0, "\(bundle): \(bsdtar.stderr)")
        }
    }
}
