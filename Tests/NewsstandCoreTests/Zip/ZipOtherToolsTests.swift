import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Zips from other tools unpack as they did with libarchive: Info-ZIP's `zip -r` of a folder
/// (empty folders, Unix modes), a streamed zip with data descriptors (bit 3), a Finder-style zip
/// with `__MACOSX/` and one top folder, Zip64 records; and names in every encoding zip has:
/// UTF-8 flagged (bit 11), Info-ZIP's Unicode path field, CP437, whatever the process's locale.
@Suite("Zips from other tools", .timeLimit(.minutes(1)), .tags(.needsTools))
struct ZipOtherToolsTests {
    private func withFolder(_ body: (URL) throws -> Void) throws {
        let folder = try Shell.temporaryFolder("zip-tools")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    /// Every file below `folder`, relative path to bytes.
    private func files(in folder: URL) throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                result[path] = try Data(contentsOf: folder.appendingPathComponent(path))
            }
        }
        return result
    }

    private func makeIssueFolder(_ root: URL) throws {
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("assets/empty"), withIntermediateDirectories: true)
        try Data("<plist><array/></plist>".utf8).write(to: root.appendingPathComponent("pages.plist"))
        try ZipFixture.randomBytes(count: 200_000, seed: 3).write(to: root.appendingPathComponent("assets/1-0.png"))
        try Data(repeating: 65, count: 50_000).write(to: root.appendingPathComponent("assets/notes.txt"))
    }

    @Test(arguments: [false, true])
    func infoZipOfAFolderUnpacks(streamed: Bool) throws {
        try withFolder { folder in
            let source = folder.appendingPathComponent("a-2")
            try makeIssueFolder(source)
            let archive = folder.appendingPathComponent("a-2.zip")
            // `zip -r - a-2 | cat` writes to a pipe: every entry gets a data descriptor.
            let zip = try Shell.run(
                "sh",
                [
                    "-c",
                    streamed
                        ? "cd '\(folder.path)' && zip -qr - a-2 | cat > a-2.zip" : "cd '\(folder.path)' && zip -qr a-2.zip a-2",
                ])
            #expect(zip.status == 0, "\(zip.stderr)")
            if streamed {
                #expect(
                    try Shell.run("zipinfo", ["-v", archive.path]).stdout.contains(
                        "extended local header:                          yes"))
            }
            let destination = folder.appendingPathComponent("out")
            let summary = try ZipExtractor.extract(from: archive, into: destination)
            #expect(summary.fileCount == 3)
            #expect(FileManager.default.fileExists(atPath: destination.path + "/a-2/assets/empty"), "the empty folder")
            #expect(try files(in: destination.appendingPathComponent("a-2")) == files(in: source))
        }
    }

    @Test func aFinderStyleZipWithMacOSMetadataUnpacks() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("finder.zip")
            try ZipFixture.make(
                at: archive,
                entries: [
                    .folder("a-2/"), .text("a-2/pages.plist", "<plist/>"), .random("a-2/1-0.png", count: 10_000, seed: 1),
                    .folder("__MACOSX/"), .folder("__MACOSX/a-2/"), .text("__MACOSX/a-2/._1-0.png", "resource fork"),
                    .text("a-2/.DS_Store", "finder"),
                ])
            let destination = folder.appendingPathComponent("out")
            let summary = try ZipExtractor.extract(from: archive, into: destination)
            // macOS's metadata is left out, not refused, though its names are hidden (issue 35).
            #expect(summary.fileCount == 2)
            #expect(try files(in: destination).keys.sorted() == ["a-2/1-0.png", "a-2/pages.plist"])
        }
    }

    /// Python's zipfile with Zip64 forced on the entry (a Zip64 extra in both headers), and the
    /// end record rewritten as Zip64's record, locator and a saturated end record, as a writer of
    /// more than 65,535 entries or 4 GiB makes them (`ZipWriter`'s own Zip64 output is read back
    /// in ZipWriterTests).
    @Test func zip64RecordsUnpack() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("z64.zip")
            let made = try Shell.python(
                """
                import struct, sys, zipfile
                with zipfile.ZipFile(sys.argv[1], "w") as z:
                    with z.open("big.txt", "w", force_zip64=True) as f:
                        f.write(b"zip64 " * 10000)
                    z.writestr("small.txt", b"s")
                data = open(sys.argv[1], "rb").read()
                end = data.rfind(b"PK\\x05\\x06")
                _, _, _, _, entries, size, start, _ = struct.unpack("<IHHHHIIH", data[end:end + 22])
                record = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, entries, entries, size, start)
                locator = struct.pack("<IIQI", 0x07064B50, 0, end, 1)
                saturated = struct.pack("<IHHHHIIH", 0x06054B50, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 0)
                open(sys.argv[1], "wb").write(data[:end] + record + locator + saturated)
                """, [archive.path])
            #expect(made.status == 0, "\(made.stderr)")
            #expect(try Shell.run("unzip", ["-t", archive.path]).status == 0, "unzip reads the Zip64 end records")
            let destination = folder.appendingPathComponent("out")
            let summary = try ZipExtractor.extract(from: archive, into: destination)
            #expect(summary.fileCount == 2)
            #expect(
                try Data(contentsOf: destination.appendingPathComponent("big.txt"))
                    == Data(String(repeating: "zip64 ", count: 10000).utf8))
        }
    }

    /// Archivers on Windows separate folders with `\`: the entry unpacks into its folder, as
    /// libarchive read it.
    @Test func backslashesSeparateFolders() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("windows.zip")
            try ZipFixture.make(at: archive, entries: [.text("pages.plist", "<plist/>"), .text("assets\\1-0.png", "x")])
            let destination = folder.appendingPathComponent("out")
            #expect(try ZipExtractor.extract(from: archive, into: destination).fileCount == 2)
            #expect(try String(contentsOfFile: destination.path + "/assets/1-0.png", encoding: .utf8) == "x")
        }
    }

    /// Names as bytes in each of zip's encodings (the test writes the header bytes itself).
    @Test func namesInEveryEncodingZipHas() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("names.zip")
            let made = try Shell.python(
                """
                import struct, sys, zipfile, zlib
                with zipfile.ZipFile(sys.argv[1], "w") as z:
                    z.writestr("utf8-été.txt", b"1")          # zipfile sets bit 11
                    z.writestr("cp437-X.txt", b"2")           # X becomes 0x82 (é in CP437) below
                    z.writestr("finder-YY.txt", b"3")         # YY becomes UTF-8 é without bit 11 below
                    for name, raw, value in [("unicode-Z.txt", b"unicode-Z.txt", "unicode-日本.txt"),
                                             ("stale-Z.txt", b"renamed.txt", "stale-日本.txt")]:
                        info = zipfile.ZipInfo(name)
                        u = value.encode()
                        info.extra = struct.pack("<HHBI", 0x7075, 5 + len(u), 1, zlib.crc32(raw)) + u
                        z.writestr(info, b"4")
                data = open(sys.argv[1], "rb").read()
                data = data.replace(b"cp437-X", b"cp437-\\x82").replace(b"finder-YY", b"finder-\\xc3\\xa9")
                open(sys.argv[1], "wb").write(data)
                """, [archive.path])
            #expect(made.status == 0, "\(made.stderr)")
            let destination = folder.appendingPathComponent("out")
            _ = try inCLocale { try ZipExtractor.extract(from: archive, into: destination) }
            let names = try FileManager.default.contentsOfDirectory(atPath: destination.path).sorted()
            #expect(
                names == ["cp437-é.txt", "finder-é.txt", "stale-Z.txt", "unicode-日本.txt", "utf8-été.txt"].sorted(), "\(names)")
        }
    }

    /// A program that never calls `setlocale` runs in the C locale, where libarchive could not
    /// convert a UTF-8 name ("an entry has no readable name" for `été.png`); ours never asks
    /// the locale.
    @Test func namesOutsideASCIIUnpackInTheCLocale() throws {
        try withFolder { folder in
            let archive = folder.appendingPathComponent("u.zip")
            try ZipFixture.make(at: archive, entries: [.text("pages.plist", "<plist/>"), .text("assets/été-日本.png", "x")])
            let destination = folder.appendingPathComponent("out")
            let summary = try inCLocale { try ZipExtractor.extract(from: archive, into: destination) }
            #expect(summary.fileCount == 2)
            #expect(try String(contentsOfFile: destination.path + "/assets/été-日本.png", encoding: .utf8) == "x")
        }
    }

    /// Runs `body` on this thread in the plain C locale.
    private func inCLocale<T>(_ body: () throws -> T) throws -> T {
        #if canImport(Glibc)
            let c = try #require(newlocale(LC_CTYPE_MASK, "C", nil))
            let previous = uselocale(c)
            defer {
                uselocale(previous)
                freelocale(c)
            }
        #endif
        return try body()
    }
}
