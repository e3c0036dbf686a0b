import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// What a hand-written zip reader newly risks: records that overlap (a "better zip bomb"
/// points many central headers at one record), a local header that disagrees with the central
/// directory, a directory that runs past the end or claims more entries than fit, a comment that
/// fakes an end record, and data that fails its CRC-32. Each archive is made by Python's
/// `zipfile` and then edited byte by byte (`ZipSurgery`); each is refused with nothing left.
@Suite("Zip records that disagree", .timeLimit(.minutes(1)), .tags(.needsTools))
struct ZipRecordDisagreementTests {
    enum Lie: String, CaseIterable {
        case overlappingRecords, manyHeadersOneRecord, localName, localMethod, localSize, localCRC
        case directoryPastTheEnd, moreEntriesThanFit, directoryOffsetPastTheEnd, storedCRC, deflatedCRC
        case inflatesPastItsSize, encrypted, bzip2
    }

    /// Two stored entries and a deflated one, edited to tell `lie`.
    static func archive(_ lie: Lie, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("\(lie.rawValue).zip")
        let script = """
            import sys, zipfile
            method = zipfile.ZIP_BZIP2 if sys.argv[2] == "bzip2" else zipfile.ZIP_DEFLATED
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                z.writestr(zipfile.ZipInfo("a.png"), bytes(range(256)) * 4, compress_type=zipfile.ZIP_STORED)
                z.writestr(zipfile.ZipInfo("b.png"), b"b" * 300, compress_type=zipfile.ZIP_STORED)
                z.writestr(zipfile.ZipInfo("pages.plist"), b"<plist><array/></plist>" * 20, compress_type=method)
            """
        let made = try Shell.python(script, [url.path, lie.rawValue])
        guard made.status == 0 else { throw TestFailure(made.stderr) }
        var zip = try ZipSurgery(url)
        let locals = zip.offsets(of: ZipSurgery.local)
        let centrals = zip.offsets(of: ZipSurgery.central)
        let end = try #require(zip.offsets(of: ZipSurgery.end).last)
        switch lie {
        case .overlappingRecords: zip.setU32(UInt32(locals[0]), at: centrals[1] + 42)
        case .manyHeadersOneRecord:
            // Every central header points at the deflated record.
            for central in centrals { zip.setU32(UInt32(locals[2]), at: central + 42) }
        case .localName: zip.bytes[locals[1] + 30] = UInt8(ascii: "c")
        case .localMethod: zip.setU16(8, at: locals[0] + 8)
        case .localSize: zip.setU32(zip.u32(at: locals[1] + 22) - 1, at: locals[1] + 22)
        case .localCRC: zip.setU32(zip.u32(at: locals[1] + 14) ^ 1, at: locals[1] + 14)
        case .directoryPastTheEnd: zip.setU32(zip.u32(at: end + 12) + 100, at: end + 12)
        case .moreEntriesThanFit:
            zip.setU16(1000, at: end + 8)
            zip.setU16(1000, at: end + 10)
        case .directoryOffsetPastTheEnd: zip.setU32(UInt32(zip.bytes.count + 10), at: end + 16)
        case .storedCRC: zip.bytes[zip.localDataOffset(0) + 100] ^= 0x01
        case .deflatedCRC:
            for header in [locals[2] + 14, centrals[2] + 16] { zip.setU32(zip.u32(at: header) ^ 0x8000, at: header) }
        case .inflatesPastItsSize:
            for header in [locals[2] + 22, centrals[2] + 24] { zip.setU32(100, at: header) }
        case .encrypted:
            for header in [locals[1] + 6, centrals[1] + 8] { zip.setU16(zip.u16(at: header) | 1, at: header) }
        case .bzip2: break
        }
        try zip.write(to: url)
        return url
    }

    @Test(arguments: Lie.allCases)
    func aLyingArchiveIsRefused(_ lie: Lie) throws {
        let folder = try Shell.temporaryFolder("zip-lies")
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = try Self.archive(lie, in: folder)
        let destination = folder.appendingPathComponent("out")
        let error = #expect(throws: ZipExtractionError.self) { try ZipExtractor.extract(from: archive, into: destination) }
        let text = error.map { "\($0)" } ?? ""
        switch (lie, error) {
        case (.overlappingRecords, .corrupt(_, let reason)?), (.manyHeadersOneRecord, .corrupt(_, let reason)?):
            #expect(reason.contains("overlaps"), "\(reason)")
        case (.localName, .corrupt(_, let reason)?): #expect(reason.contains("another name"), "\(reason)")
        case (.localMethod, .corrupt(_, let reason)?): #expect(reason.contains("another compression method"), "\(reason)")
        case (.localSize, .corrupt(_, let reason)?): #expect(reason.contains("another size"), "\(reason)")
        case (.localCRC, .corrupt(_, let reason)?): #expect(reason.contains("another CRC-32"), "\(reason)")
        case (.directoryPastTheEnd, .corrupt(_, let reason)?), (.directoryOffsetPastTheEnd, .corrupt(_, let reason)?):
            #expect(reason.contains("central directory"), "\(reason)")
        case (.moreEntriesThanFit, .corrupt(_, let reason)?): #expect(reason.contains("claims 1000 entries"), "\(reason)")
        case (.storedCRC, .checksumMismatch(_, let entry, _, _)?): #expect(entry == "a.png")
        case (.deflatedCRC, .checksumMismatch(_, let entry, _, _)?): #expect(entry == "pages.plist")
        case (.inflatesPastItsSize, .corrupt(_, let reason)?):
            #expect(reason.contains("inflates past its declared size of 100"), "\(reason)")
        case (.encrypted, .encrypted(_, let entry)?): #expect(entry == "b.png")
        case (.bzip2, .unsupportedMethod(_, let entry, let method)?): #expect(entry == "pages.plist" && method == "bzip2 (12)")
        default: Issue.record("\(lie): unexpected \(text)")
        }
        #expect(!FileManager.default.fileExists(atPath: destination.path), "nothing is left behind")
        if case .checksumMismatch? = error { #expect(text.contains("fails its CRC-32 check"), "\(text)") }
    }

    /// `unzip -t` agrees that the CRC lies are lies: the test's archives are what they claim.
    @Test(arguments: [Lie.storedCRC, .deflatedCRC])
    func unzipSeesTheSameBadCRC(_ lie: Lie) throws {
        let folder = try Shell.temporaryFolder("zip-lies")
        defer { try? FileManager.default.removeItem(at: folder) }
        let test = try Shell.run("unzip", ["-t", try Self.archive(lie, in: folder).path])
        #expect(test.status != 0 && test.stdout.contains("bad CRC"), "\(test.stdout)")
    }

    /// A comment that holds an end record's signature (and a plausible record after it) is not
    /// taken for the end record: the real one, whose comment reaches the end of the file, is.
    @Test func aCommentThatFakesAnEndRecordIsNotMisread() throws {
        let folder = try Shell.temporaryFolder("zip-lies")
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("comment.zip")
        let made = try Shell.python(
            """
            import struct, sys, zipfile
            with zipfile.ZipFile(sys.argv[1], "w") as z:
                z.writestr("a.txt", b"real")
                fake = b"PK\\x05\\x06" + struct.pack("<HHHHIIH", 0, 0, 9, 9, 4000, 0, 0)
                z.comment = b"x" + fake + b"tail"
            """, [archive.path])
        #expect(made.status == 0, "\(made.stderr)")
        let destination = folder.appendingPathComponent("out")
        let summary = try ZipExtractor.extract(from: archive, into: destination)
        #expect(summary.fileCount == 1)
        #expect(try String(contentsOf: destination.appendingPathComponent("a.txt"), encoding: .utf8) == "real")
    }

    /// Names the caller reserves are refused at any depth, the entry named; without a
    /// reservation the same archive is refused all the same, as the build's name rules refuse
    /// hidden names (issue 35: macOS's own metadata is left out instead, `ZipOtherToolsTests`).
    @Test func reservedNamesAreRefusedWhereverTheyAre() throws {
        let folder = try Shell.temporaryFolder("zip-reserved")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in [".newsstand-index.json", "issue/.newsstand-index.json", ".newsstand-index.json.1.a.tmp"] {
            let archive = folder.appendingPathComponent("r.zip")
            try? FileManager.default.removeItem(at: archive)
            try ZipFixture.make(at: archive, entries: [.text("pages.plist", "<plist/>"), .text(name, "{}")])
            let destination = folder.appendingPathComponent("out")
            #expect(throws: ZipExtractionError.reservedName(archive: archive.path, entry: name)) {
                try ZipExtractor.extract(from: archive, into: destination, reservedPrefixes: [".newsstand"])
            }
            #expect(!FileManager.default.fileExists(atPath: destination.path))
            #expect(throws: ZipExtractionError.unsafeName(archive: archive.path, entry: name, problem: .hidden)) {
                try ZipExtractor.extract(from: archive, into: destination)
            }
            #expect(!FileManager.default.fileExists(atPath: destination.path))
        }
    }
}
