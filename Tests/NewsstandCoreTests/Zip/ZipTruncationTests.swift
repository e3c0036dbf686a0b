import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// A download cut short or a disk that filled leaves a prefix of a bundle. Cut at every offset
/// of a small bundle (stored images, a deflated config, a folder, a Zip64 entry, a data
/// descriptor), and at 350 points of a larger one, the archive is refused each time,
/// cleanly (a `ZipExtractionError`, never a crash or a hang) with nothing left behind.
@Suite("Truncated archives", .timeLimit(.minutes(3)), .tags(.needsTools))
struct ZipTruncationTests {
    static func bundle(at url: URL, imageBytes: Int) throws {
        let made = try Shell.python(
            """
            import io, random, sys, zipfile
            class Pipe(io.RawIOBase):
                # Not seekable: zipfile writes this entry with a data descriptor (bit 3).
                def __init__(self): self.data = bytearray()
                def writable(self): return True
                def write(self, b): self.data += b; return len(b)
            r = random.Random(4)
            pipe = Pipe()
            with zipfile.ZipFile(pipe, "w") as z:
                z.writestr(zipfile.ZipInfo("assets/"), b"")
                z.writestr("pages.plist", b"<plist><array/></plist>" * 40, compress_type=zipfile.ZIP_DEFLATED)
                z.writestr("assets/1-0.png", r.randbytes(int(sys.argv[2])), compress_type=zipfile.ZIP_STORED)
                with z.open(zipfile.ZipInfo("assets/2-0.png"), "w", force_zip64=True) as f:
                    f.write(r.randbytes(int(sys.argv[2]) // 2))
            open(sys.argv[1], "wb").write(pipe.data)
            """, [url.path, String(imageBytes)])
        guard made.status == 0 else { throw TestFailure(made.stderr) }
    }

    /// Extracts every prefix of `bundle` at `cuts`; returns the cuts that were not refused.
    static func accepted(_ bundle: URL, cuts: some Sequence<Int>, in folder: URL) throws -> [Int] {
        let whole = try Data(contentsOf: bundle)
        let cut = folder.appendingPathComponent("cut.zip")
        let destination = folder.appendingPathComponent("out")
        var accepted: [Int] = []
        for length in cuts {
            try whole.prefix(length).write(to: cut)
            do {
                try ZipExtractor.extract(from: cut, into: destination)
                accepted.append(length)
                try FileManager.default.removeItem(at: destination)
            } catch {
                if FileManager.default.fileExists(atPath: destination.path) { accepted.append(-length) }
            }
        }
        return accepted
    }

    @Test func everyPrefixOfASmallBundleIsRefused() throws {
        let folder = try Shell.temporaryFolder("zip-cut")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("bundle.zip")
        try Self.bundle(at: bundle, imageBytes: 1500)
        let size = try Data(contentsOf: bundle).count
        #expect(try ZipExtractor.extract(from: bundle, into: folder.appendingPathComponent("whole")).fileCount == 3)
        #expect(try Self.accepted(bundle, cuts: 0..<size, in: folder) == [], "a prefix was accepted (negative: left behind)")
    }

    @Test func hundredsOfPrefixesOfALargerBundleAreRefused() throws {
        let folder = try Shell.temporaryFolder("zip-cut")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("bundle.zip")
        try Self.bundle(at: bundle, imageBytes: 400 << 10)
        let size = try Data(contentsOf: bundle).count
        let cuts = stride(from: 0, to: size, by: size / 150).map { $0 } + ((size - 200)..<size).map { $0 }
        #expect(try Self.accepted(bundle, cuts: cuts, in: folder) == [])
    }
}
