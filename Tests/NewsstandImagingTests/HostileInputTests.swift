import Foundation
import NewsstandImaging
import NewsstandTestSupport
import Testing

/// Inputs and outputs that lie: links, FIFOs, a format under another's name, damaged files,
/// headers claiming billions of pixels, an output that is already there.
@Suite(.tags(.needsTools)) struct HostileInputTests {
    let deriver = NormalSizeDeriver()

    @Test func aSymbolicLinkIsNotFollowed() throws {
        let folder = try Fixtures.folder()
        let real = try Fixtures.png(folder.appendingPathComponent("real.png"), width: 20, height: 20)
        let link = folder.appendingPathComponent("link@2x.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let out = folder.appendingPathComponent("out.png")
        #expect(throws: ImagingError.cannotOpen(path: link.path, reason: "it is a symbolic link")) {
            try deriver.derive(from: .path(link.path), to: .newFile(out.path))
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// libvips would fill a truncated image's missing rows with grey or black; the engine stops
    /// instead, and the half-written output is removed.
    @Test(arguments: ["png", "jpg"])
    func aTruncatedMasterIsUnreadableAndItsOutputRemoved(kind: String) throws {
        let folder = try Fixtures.folder()
        let whole = folder.appendingPathComponent("whole.\(kind)")
        if kind == "png" {
            try Fixtures.png(whole, width: 300, height: 300)
        } else {
            try Fixtures.jpeg(whole, width: 300, height: 300)
        }
        let cut = folder.appendingPathComponent("cut@2x.\(kind)")
        let bytes = try Data.of(whole)
        try bytes.prefix(bytes.count * 2 / 3).write(to: cut)
        let out = folder.appendingPathComponent("cut.\(kind)")
        do {
            _ = try deriver.derive(from: .path(cut.path), to: .newFile(out.path))
            Issue.record("a truncated master was derived")
        } catch {
            guard case .unreadable(let path, _) = error else {
                Issue.record("expected unreadable, got \(error)")
                return
            }
            #expect(path == cut.path)
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// A 24-byte header may claim 100,000 × 100,000 pixels: refused before any work.
    @Test func aHeaderClaimingBillionsOfPixelsIsRefused() throws {
        let folder = try Fixtures.folder()
        let huge = folder.appendingPathComponent("huge@2x.png")
        let script = """
            import struct, sys, zlib
            def chunk(k, d): return struct.pack(">I", len(d)) + k + d + struct.pack(">I", zlib.crc32(k + d))
            open(sys.argv[1], "wb").write(b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100000, 100000, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(b"\\x00" * 1000)) + chunk(b"IEND", b""))
            """
        try Fixtures.run(Fixtures.python, ["-c", script, huge.path])
        let out = folder.appendingPathComponent("o.png")
        #expect(throws: ImagingError.tooLarge(path: huge.path, width: 100000, height: 100000, limit: 50_000_000)) {
            try deriver.derive(from: .path(huge.path), to: .newFile(out.path))
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    /// An output that exists (a file, or a link to one outside) is never replaced or followed.
    @Test func anExistingOutputIsNeverReplaced() throws {
        let folder = try Fixtures.folder()
        let master = try Fixtures.png(folder.appendingPathComponent("m@2x.png"), width: 40, height: 40)
        let existing = folder.appendingPathComponent("m.png")
        try Data("keep me".utf8).write(to: existing)
        #expect(throws: ImagingError.cannotWrite(path: existing.path, reason: "it already exists")) {
            try deriver.derive(from: .path(master.path), to: .newFile(existing.path))
        }
        #expect(try Data.of(existing) == Data("keep me".utf8))

        let outside = folder.appendingPathComponent("outside.txt")
        try Data("outside".utf8).write(to: outside)
        let link = folder.appendingPathComponent("link.png")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)
        #expect(throws: ImagingError.cannotWrite(path: link.path, reason: "it already exists")) {
            try deriver.derive(from: .path(master.path), to: .newFile(link.path))
        }
        #expect(try Data.of(outside) == Data("outside".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == outside.path)
    }

    /// The build opens inputs itself (relative to an open folder, no links followed) and hands
    /// over descriptors; two operations may read one descriptor at once.
    @Test func readsFromADescriptorWithoutMovingItsOffset() throws {
        let folder = try Fixtures.folder()
        let master = try Fixtures.png(folder.appendingPathComponent("m@2x.png"), width: 64, height: 48)
        let fd = open(master.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(lseek(fd, 5, SEEK_SET) == 5)
        let outputs = (0..<4).map { folder.appendingPathComponent("out-\($0).png") }
        DispatchQueue.concurrentPerform(iterations: outputs.count) { index in
            do {
                _ = try deriver.derive(from: .descriptor(fd, name: "m@2x.png"), to: .newFile(outputs[index].path))
            } catch {
                Issue.record("\(error)")
            }
        }
        #expect(lseek(fd, 0, SEEK_CUR) == 5)
        let first = try Data.of(outputs[0])
        for output in outputs { #expect(try Data.of(output) == first) }
    }

    @Test func aDescriptorOutputIsTruncatedToWhatWasWritten() throws {
        let folder = try Fixtures.folder()
        let master = try Fixtures.png(folder.appendingPathComponent("m@2x.png"), width: 64, height: 48)
        let target = folder.appendingPathComponent("target.png")
        try Data(repeating: 0x41, count: 1_000_000).write(to: target)
        let fd = open(target.path, O_RDWR)
        try #require(fd >= 0)
        defer { close(fd) }
        let derived = try deriver.derive(from: .path(master.path), to: .descriptor(fd, name: "target.png"))
        #expect(Int64(try Data.of(target).count) == derived.byteCount)
        #expect(try Fixtures.size(target) == (32, 24))
    }
}
