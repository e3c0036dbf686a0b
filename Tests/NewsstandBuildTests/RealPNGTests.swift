import Foundation
import NewsstandTestSupport
import Testing

/// `RealPNG` writes in this process the bytes Python's zlib and struct write for the same
/// pattern, so the imaging tests that use it keep their inputs byte for byte (they were made by
/// this script before) while running in the fast tier.
@Suite(.tags(.needsTools)) struct RealPNGTests {
    static let script = """
        import sys, zlib, struct
        w, h, meta, seed = (int(a) for a in sys.argv[1:5])
        def chunk(t, d): return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
        raw = bytearray()
        for y in range(h):
            raw.append(0)
            for x in range(w):
                raw += bytes(((x * 5 + seed) & 255, (y * 3) & 255, ((x // 8 + y // 8) % 2) * 200))
        out = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
        if meta: out += chunk(b'tEXt', b'Comment\\x00' + bytes((i * 7 + 13) % 94 + 32 for i in range(meta)))
        out += chunk(b'IDAT', zlib.compress(bytes(raw), 1)) + chunk(b'IEND', b'')
        sys.stdout.write(out.hex())
        """

    @Test(arguments: [(40, 24, 0, 0), (41, 24, 0, 0), (20, 12, 4_000, 3), (40, 24, 20_000, 5)])
    func theSwiftPNGIsWhatPythonsZlibWrites(width: Int, height: Int, metadata: Int, seed: Int) throws {
        let python = try Shell.python(Self.script, ["\(width)", "\(height)", "\(metadata)", "\(seed)"])
        #expect(python.status == 0, "\(python.stderr)")
        let swift = try RealPNG.data(width: width, height: height, metadata: metadata, seed: seed)
        #expect(swift.map { String(format: "%02x", $0) }.joined() == python.stdout)
    }
}
