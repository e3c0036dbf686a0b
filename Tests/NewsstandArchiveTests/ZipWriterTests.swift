import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandArchive

/// What `ZipWriter` writes, read back by tools we did not write: Java's streaming
/// `ZipInputStream`, Python's `zipfile`, `unzip`, `zipinfo` and `bsdtar`, plus our own
/// `ZipExtractor` and the test's own header reader (`ZipLayout`).
@Suite("Zip writer output", .timeLimit(.minutes(2)), .tags(.needsTools))
struct ZipWriterTests {
    /// One entry to write, and what it should read back as.
    struct Item {
        var name: String
        var compression: ZipCompression
        var date: Date
        var bytes: Data
        /// Added with `addData` instead of `addFile`.
        var fromMemory = false
    }

    /// Entries chosen for the paths through the writer: empty ones (both methods), stored data
    /// over several read chunks, deflate output over several of libarchive's 64 KB buffers,
    /// a UTF-8 name, and times that differ from one zone to the next, before 1980 (clamped)
    /// and after 2107 (clamped).
    static func items() -> [Item] {
        func utc(_ text: String) -> Date {
            ISO8601DateFormatter().date(from: text) ?? Date(timeIntervalSince1970: 0)
        }
        let prose = Data(String(repeating: "Northern lights over the fjord, page after page. ", count: 4_000).utf8)
        return [
            Item(name: "issue.plist", compression: .deflate, date: utc("2026-03-01T23:59:59Z"), bytes: Data("<plist/>".utf8)),
            Item(name: "empty.txt", compression: .deflate, date: utc("2026-03-01T08:00:00Z"), bytes: Data()),
            Item(name: "empty.png", compression: .store, date: utc("2026-03-01T08:00:01Z"), bytes: Data()),
            Item(name: "photo.png", compression: .store, date: utc("2000-02-29T12:34:56Z"), bytes: Self.noise(700_000, seed: 1)),
            Item(
                name: "noise.bin", compression: .deflate, date: utc("1979-12-31T23:00:00Z"), bytes: Self.noise(200_000, seed: 2)),
            Item(name: "prose.txt", compression: .deflate, date: utc("2150-06-01T00:00:00Z"), bytes: prose),
            Item(
                name: "Seite-ünïcødé.plist", compression: .deflate, date: utc("2026-07-04T00:30:00Z"),
                bytes: Data("<plist>ü</plist>".utf8), fromMemory: true),
            Item(name: "last.jpg", compression: .store, date: utc("2026-12-31T23:59:58Z"), bytes: Self.noise(5, seed: 3)),
        ]
    }

    /// Bytes that do not compress, the same for the same seed.
    static func noise(_ count: Int, seed: UInt64) -> Data {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return Data(
            (0..<count).map { _ in
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return UInt8(truncatingIfNeeded: state >> 24)
            })
    }

    /// The DOS date and time of `date`'s UTC components, by Foundation's calendar.
    static func dosUTC(_ date: Date) throws -> (time: UInt16, date: UInt16) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let year = try #require(parts.year)
        if year < 1980 { return (0, 0x21) }
        if year > 2107 { return (0xbf7d, 0xff9f) }
        let day = UInt16(year - 1980) << 9 | UInt16(try #require(parts.month)) << 5 | UInt16(try #require(parts.day))
        let time =
            UInt16(try #require(parts.hour)) << 11 | UInt16(try #require(parts.minute)) << 5
            | UInt16(try #require(parts.second) / 2)
        return (time, day)
    }

    /// Writes `items` (files first written to `folder/sources`), returns the archive, its
    /// sources and the size `close()` reported.
    func write(
        _ items: [Item], in folder: URL, zip64: Bool, named name: String = "out.zip",
        observe: ((UnsafeRawBufferPointer) -> Void)? = nil
    ) throws -> (archive: URL, sources: [URL], size: Int64) {
        let sources = folder.appendingPathComponent("sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        let archive = folder.appendingPathComponent(name)
        let writer = try ZipWriter(url: archive, forcingZip64: zip64, onOutput: observe)
        var files: [URL] = []
        for (index, item) in items.enumerated() {
            let source = sources.appendingPathComponent("\(index)")
            try item.bytes.write(to: source)
            files.append(source)
            if item.fromMemory {
                try writer.addData(item.bytes, as: item.name, modified: item.date, compression: item.compression)
            } else {
                try writer.addFile(at: source, as: item.name, modified: item.date, compression: item.compression)
            }
        }
        return (archive, files, try writer.close())
    }

    @Test(arguments: [false, true])
    func everyEntryCarriesItsCRCAndSizesInItsLocalHeader(zip64: Bool) throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        let items = Self.items()
        let (archive, sources, size) = try write(items, in: folder, zip64: zip64)
        let data = try Data(contentsOf: archive)
        #expect(size == Int64(data.count))

        // Our own reading: headers front to back, no bit 3, no bytes between an entry's data
        // and the next header, the directory right after the last entry, and the local and
        // central records agreeing.
        let layout = try ZipLayout(data)
        #expect(layout.locals.map(\.name) == items.map(\.name))
        #expect(layout.centrals.map(\.name) == items.map(\.name))
        #expect(UInt64(layout.endOfEntries) == layout.directoryOffset)
        #expect(layout.directoryOffset + layout.directorySize + (zip64 ? 56 + 20 : 0) + 22 == UInt64(data.count))
        #expect(layout.hasZip64End == zip64)
        for (local, central) in zip(layout.locals, layout.centrals) {
            #expect(local.flags & 8 == 0 && central.flags & 8 == 0, "\(local.name)")
            #expect(local.hasZip64Sizes == zip64, "\(local.name)")
            #expect(UInt64(local.offset) == central.localOffset, "\(local.name)")
            #expect(local.crc32 == central.crc32, "\(local.name)")
            #expect(local.compressedSize == central.compressedSize, "\(local.name)")
            #expect(local.uncompressedSize == central.uncompressedSize, "\(local.name)")
            #expect(local.method == central.method, "\(local.name)")
        }
        #expect(zip(layout.locals, items).allSatisfy { $0.uncompressedSize == UInt64($1.bytes.count) })

        // Java's streaming reader: every entry, with its size and CRC known from the local
        // header before its data, and the bytes of its source.
        let expected = try Self.digests(of: sources)
        let java = try JavaZipStream.read([archive])
        #expect(java.result.status == 0, "\(java.result.stderr)")
        #expect(java.entries.map(\.name) == items.map(\.name))
        for (entry, (item, digest)) in zip(java.entries, zip(items, expected)) {
            #expect(entry.size == item.bytes.count, "\(entry)")
            #expect(entry.method == (item.compression == .store ? "stored" : "deflated"), "\(entry)")
            #expect(entry.crc32 == digest.crc32 && entry.sha256 == digest.sha256, "\(entry)")
        }

        // Python's zipfile (CRC checked on every read), unzip, zipinfo, bsdtar.
        let python = try Shell.python(
            """
            import sys, zipfile, hashlib
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            for info in z.infolist():
                print(info.filename, info.flag_bits & 8, '%08x' % info.CRC, hashlib.sha256(z.read(info)).hexdigest())
            """, [archive.path])
        #expect(python.status == 0, "\(python.stderr)")
        #expect(
            python.stdout
                == zip(items, expected).map { "\($0.name) 0 \($1.crc32) \($1.sha256)\n" }.joined())
        let unzip = try Shell.run("unzip", ["-t", archive.path])
        #expect(unzip.status == 0 && unzip.stdout.contains("No errors detected"), "\(unzip.stdout)")
        let zipinfo = try Shell.run("zipinfo", ["-v", archive.path]).stdout
        #expect(zipinfo.components(separatedBy: "extended local header:                          no").count == items.count + 1)
        #expect(!zipinfo.contains("extended local header:                          yes"))
        let bsdtar = try Shell.run("bsdtar", ["-tf", archive.path])
        #expect(bsdtar.status == 0 && bsdtar.stdout == items.map { $0.name + "\n" }.joined(), "\(bsdtar.stderr)")

        // And the reader's unpacker (NewsstandCore's, over zlib), every name whatever the locale.
        let unpacked = folder.appendingPathComponent("unpacked")
        let summary = try ZipExtractor.extract(from: archive, into: unpacked)
        #expect(summary.fileCount == items.count)
        for item in items {
            let same = try Data(contentsOf: unpacked.appendingPathComponent(item.name)) == item.bytes
            #expect(same, "\(item.name)")
        }
    }

    /// DOS date and time fields hold the UTC components of each entry's date, whatever zone
    /// the test process runs in (`make test` runs it in Pacific/Auckland); the test never
    /// touches `TZ`.
    @Test func entryTimesAreTheDatesInUTC() throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        let items = Self.items()
        let (archive, _, _) = try write(items, in: folder, zip64: false)
        let layout = try ZipLayout(Data(contentsOf: archive))
        for (item, (local, central)) in zip(items, zip(layout.locals, layout.centrals)) {
            let expected = try Self.dosUTC(item.date)
            #expect(local.time == expected.time && local.date == expected.date, "\(item.name)")
            #expect(central.time == expected.time && central.date == expected.date, "\(item.name)")
        }
        // Python decodes the same fields on its own.
        let python = try Shell.python(
            "import sys, zipfile\nfor i in zipfile.ZipFile(sys.argv[1]).infolist(): print(*i.date_time)", [archive.path])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        let lines = items.map { item -> String in
            let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: item.date)
            guard let year = c.year, year >= 1980 else { return "1980 1 1 0 0 0" }
            guard year <= 2107 else { return "2107 12 31 23 59 58" }
            return "\(year) \(c.month ?? 0) \(c.day ?? 0) \(c.hour ?? 0) \(c.minute ?? 0) \((c.second ?? 0) / 2 * 2)"
        }
        #expect(python.stdout == lines.map { $0 + "\n" }.joined())
    }

    /// EPUB's `mimetype` entry: first, stored, and with no extra field in its local header, so
    /// that its content starts at byte 38 of the archive (where readers of EPUB look for it);
    /// the entries after it keep theirs and every tool still reads the archive.
    @Test func anEntryWithoutExtraFieldsHasItsDataRightAfterItsName() throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        let archive = folder.appendingPathComponent("book.epub")
        let writer = try ZipWriter(url: archive)
        let date = Date(timeIntervalSince1970: 1_788_249_600)
        try writer.addData(
            Data("application/epub+zip".utf8), as: "mimetype", modified: date, compression: .store, omittingExtraFields: true)
        try writer.addData(Data("<container/>".utf8), as: "META-INF/container.xml", modified: date, compression: .deflate)
        try writer.close()
        let data = try Data(contentsOf: archive)
        #expect(data.prefix(4) == Data([0x50, 0x4B, 0x03, 0x04]))
        #expect(data[data.startIndex + 28] == 0 && data[data.startIndex + 29] == 0, "the mimetype header has an extra field")
        #expect(
            String(decoding: data[(data.startIndex + 30)..<(data.startIndex + 58)], as: UTF8.self)
                == "mimetypeapplication/epub+zip")
        let layout = try ZipLayout(data)
        #expect(writer.entries.first?.layout.dataOffset == 38 && layout.locals.first?.dataOffset == 38)
        #expect(layout.locals.map(\.name) == ["mimetype", "META-INF/container.xml"])
        #expect(UInt64(layout.locals[1].offset) == layout.centrals[1].localOffset)
        let python = try Shell.python(
            """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            assert z.testzip() is None
            for info in z.infolist():
                raw = open(sys.argv[1], 'rb')
                raw.seek(info.header_offset + 28)
                print(info.filename, info.compress_type, int.from_bytes(raw.read(2), 'little'), z.read(info).decode())
            """, [archive.path])
        #expect(python.status == 0, "\(python.stderr)")
        #expect(python.stdout == "mimetype 0 0 application/epub+zip\nMETA-INF/container.xml 8 24 <container/>\n")
        let unzip = try Shell.run("unzip", ["-t", archive.path])
        #expect(unzip.status == 0 && unzip.stdout.contains("No errors detected"), "\(unzip.stdout)")
        let java = try JavaZipStream.read([archive])
        #expect(
            java.result.status == 0 && java.entries.map(\.name) == ["mimetype", "META-INF/container.xml"], "\(java.result.stderr)"
        )
    }

    /// A file already at the archive's path, longer than the archive, is emptied first (by path
    /// and through a descriptor): the writer truncates only a file that holds something, since
    /// truncating a new, empty one made ext4 write it all back on close.
    @Test(arguments: [false, true])
    func anArchiveOverALongerFileHoldsOnlyTheArchive(throughDescriptor: Bool) throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        let archive = folder.appendingPathComponent("out.zip")
        try Self.noise(3 << 20, seed: 9).write(to: archive)
        let writer: ZipWriter
        if throughDescriptor {
            let fd = open(archive.path, O_RDWR | O_CLOEXEC)
            try #require(fd >= 0)
            writer = try ZipWriter(descriptor: fd, path: archive.path)
        } else {
            writer = try ZipWriter(url: archive)
        }
        try writer.addData(
            Data("hello".utf8), as: "a.txt", modified: Date(timeIntervalSince1970: 1_788_249_600), compression: .store)
        let size = try writer.close()
        let data = try Data(contentsOf: archive)
        #expect(Int64(data.count) == size && size < 1000)
        let python = try Shell.python(
            "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(z.read('a.txt').decode())",
            [archive.path])
        #expect(python.status == 0 && python.stdout == "hello\n", "\(python.stderr)")
    }

    @Test func anArchiveWithoutEntriesIsValid() throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        let (archive, _, size) = try write([], in: folder, zip64: false)
        #expect(size == 22)
        let layout = try ZipLayout(Data(contentsOf: archive))
        #expect(layout.locals.isEmpty && layout.centrals.isEmpty)
        let python = try Shell.python("import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).infolist()))", [archive.path])
        #expect(python.stdout == "0\n")
    }

    /// Entries past 4 GiB, where libarchive turns to Zip64 by itself: a stored entry of 4 GiB
    /// and more (Zip64 sizes in its local header and central directory), and an entry after it
    /// whose local header lies past 4 GiB (its offset in a Zip64 extra field, and the Zip64 end
    /// records). Writes and reads 4 GiB, so it runs only with NEWSSTAND_LARGE_TESTS=1.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["NEWSSTAND_LARGE_TESTS"] == "1"), .timeLimit(.minutes(10)))
    func entriesBeyondFourGiB() throws {
        let folder = try Shell.temporaryFolder("zipwriter")
        let big = folder.appendingPathComponent("big.mov")
        let bigSize: Int64 = (4 << 30) + 12_345
        // Sparse: reading it costs no disk.
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(bigSize))
        try handle.close()
        let small = folder.appendingPathComponent("after.plist")
        try Data("<plist>after</plist>".utf8).write(to: small)
        let archive = folder.appendingPathComponent("large.zip")
        nonisolated(unsafe) var observed: Int64 = 0
        let writer = try ZipWriter(url: archive) { observed += Int64($0.count) }
        let date = Date(timeIntervalSince1970: 1_772_352_000)
        try writer.addFile(at: small, as: "before.plist", modified: date, compression: .deflate)
        try writer.addFile(at: big, as: "big.mov", modified: date, compression: .store)
        try writer.addFile(at: small, as: "after.plist", modified: date, compression: .deflate)
        let size = try writer.close()
        defer { try? FileManager.default.removeItem(at: archive) }
        #expect(observed == size)

        let python = try Shell.python(
            """
            import sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            for i in z.infolist():
                stored = i.compress_size if i.compress_type == zipfile.ZIP_STORED else '-'
                print(i.filename, i.flag_bits & 8, i.file_size, stored, i.header_offset > 0xffffffff)
            assert z.read('after.plist') == b'<plist>after</plist>'
            assert z.read('before.plist') == b'<plist>after</plist>'
            """, [archive.path])
        #expect(python.status == 0, "\(python.stderr)")
        #expect(
            python.stdout
                == "before.plist 0 20 - False\nbig.mov 0 \(bigSize) \(bigSize) False\nafter.plist 0 20 - True\n")
        let java = try JavaZipStream.read([archive])
        #expect(java.result.status == 0, "\(java.result.stderr)")
        #expect(java.entries.map(\.name) == ["before.plist", "big.mov", "after.plist"])
        #expect(java.entries.map(\.size) == [20, Int(bigSize), 20])
        let unzip = try Shell.run("unzip", ["-tq", archive.path])
        #expect(unzip.status == 0, "\(unzip.stdout)")
        let zipinfo = try Shell.run("zipinfo", ["-v", archive.path]).stdout
        #expect(!zipinfo.contains("extended local header:                          yes"))
    }

    /// CRC-32 (as Python's zlib computes it) and SHA-256 of each file, in lowercase hex.
    static func digests(of files: [URL]) throws -> [(crc32: String, sha256: String)] {
        let result = try Shell.python(
            """
            import sys, zlib, hashlib
            for path in sys.argv[1:]:
                data = open(path, 'rb').read()
                print('%08x' % zlib.crc32(data), hashlib.sha256(data).hexdigest())
            """, files.map(\.path))
        return result.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: " ").map(String.init)
            return (fields.first ?? "", fields.last ?? "")
        }
    }
}
