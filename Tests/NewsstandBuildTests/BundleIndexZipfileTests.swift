import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandTestSupport
import Testing

/// The indexes the build writes agree with what Python's zipfile says of their bundles, and the
/// catalog (read by plistlib) gives each. The rest of the indexes' rules are in
/// `BundleIndexBuildTests`, in the fast tier.
@Suite(.tags(.needsTools)) struct BundleIndexZipfileTests {
    let base = BundleIndexBuildTests()

    /// What Python says about every entry of a zip: name, sizes, CRC-32, method, the local
    /// header's offset, the data's offset (header + 30 + name and extra lengths read from the
    /// local header itself) and the SHA-256 of the uncompressed bytes; and the zip's own size
    /// and SHA-256.
    private func pythonView(of zip: URL) throws -> [String] {
        let script = """
            import hashlib, struct, sys, zipfile
            path = sys.argv[1]
            raw = open(path, 'rb').read()
            print('bundle', len(raw), hashlib.sha256(raw).hexdigest())
            with zipfile.ZipFile(path) as z:
                for i in z.infolist():
                    n, m = struct.unpack('<HH', raw[i.header_offset + 26:i.header_offset + 30])
                    method = {0: 'stored', 8: 'deflated'}[i.compress_type]
                    print(i.filename, i.file_size, hashlib.sha256(z.read(i)).hexdigest(), i.CRC, method,
                          i.header_offset, i.header_offset + 30 + n + m, i.compress_size)
            """
        return try Shell.python(script, [zip.path]).stdout.split(separator: "\n").map(String.init)
    }

    @Test(arguments: [false, true])
    func eachIndexAgreesWithWhatZipfileSaysOfItsBundle(versioned: Bool) throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        _ = try base.build(fixture, into: output, versioned: versioned)
        let folder = output.appendingPathComponent("f-1")
        let recorded = try base.manifest(output, "f-1")
        let pairs = [
            (recorded.bundle, try #require(recorded.index)), (recorded.retinaBundle, try #require(recorded.retinaIndex)),
        ]
        for (bundle, indexRecord) in pairs {
            let data = try Data(contentsOf: folder.appendingPathComponent(indexRecord.file))
            #expect(Int64(data.count) == indexRecord.size)
            #expect(SHA256.hex(of: data) == indexRecord.sha256)
            let index = try BundleIndex.decode(data)
            // Both methods are covered: configs are deflated, images stored.
            #expect(Set(index.entries.map(\.method)) == [.stored, .deflated])
            #expect(base.view(of: index) == (try pythonView(of: folder.appendingPathComponent(bundle.file))))
            // Canonical: what the build wrote is what the model encodes.
            #expect(index.encoded() == data)
        }
    }

    @Test func theCatalogGivesEachIndexWithItsSizeAndSHA256() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try base.build(fixture, into: output, versioned: true)
        // Read by plistlib, not by our parser: the keys are a documented format.
        let script = """
            import plistlib, sys
            for e in plistlib.load(open(sys.argv[1], 'rb')):
                print(e['Name'], e['ContentIndex'], e['ContentIndexSize'], e['ContentIndexSHA256'],
                      e['RetinaContentIndexSize'], e['RetinaContentIndexSHA256'])
            """
        let lines = try Shell.python(script, [output.appendingPathComponent("issues.plist").path]).stdout
            .split(separator: "\n").map(String.init)
        var expected: [String] = []
        for issue in ["f-2", "f-1"] {
            let folder = output.appendingPathComponent(issue)
            let recorded = try base.manifest(output, issue)
            let index = try #require(recorded.index)
            let retina = try #require(recorded.retinaIndex)
            #expect(RetinaName.of(index.file) == retina.file)
            let normalData = try Data(contentsOf: folder.appendingPathComponent(index.file))
            let retinaData = try Data(contentsOf: folder.appendingPathComponent(retina.file))
            expected.append(
                "\(issue) https://example.com/mag/\(issue)/\(index.file) \(normalData.count) \(SHA256.hex(of: normalData)) "
                    + "\(retinaData.count) \(SHA256.hex(of: retinaData))")
        }
        #expect(lines == expected)
    }
}
