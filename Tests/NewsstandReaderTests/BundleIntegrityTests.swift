import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Issue 23, items 7 and 8: a bundle is only installed when every entry has the CRC-32 its
/// records state (a catalog in the seed's five-key form has no SHA-256, so the CRC is all there
/// is), and a bundle may not bring the library's own records into the content folder.
@Suite("Bundle integrity", .timeLimit(.minutes(1)))
struct BundleIntegrityTests {
    /// Publishes `f-1` without checksums (the seed's five keys) with `bundle`, then lets `edit`
    /// change the served bytes.
    static func publishFiveKeys(
        _ bed: ScriptedBed, _ bundle: [StoredZip.Entry], edit: (inout ZipSurgery) -> Void = { _ in }
    ) throws {
        var spec = ScriptedBed.IssueSpec("f-1", day: 1, normal: bundle)
        spec.withChecksums = false
        let entries = try bed.publish([spec])
        #expect(entries[0].contentSHA256 == nil && entries[0].contentSize == nil)
        var zip = ZipSurgery(try bed.served("f-1/f-1.zip"))
        edit(&zip)
        bed.serve(Data(zip.bytes), at: "f-1/f-1.zip")
    }

    @Test func aFlippedByteInAStoredImageIsNotInstalled() async throws {
        try await ScriptedBed.with { bed in
            // Entry 2 is the stored image `1-0.png`.
            try Self.publishFiveKeys(bed, ScriptedBed.IssueSpec.pages(scale: "")) {
                $0.bytes[$0.localDataOffset(2) + 1000] ^= 0x04
            }
            // The served image's bytes no longer have the CRC-32 its headers state (the test's own
            // CRC and scan for the headers, not the reader's).
            let served = ZipSurgery(try bed.served("f-1/f-1.zip"))
            let image = served.localDataOffset(2)
            let stated = served.u32(at: served.offsets(of: 0x0403_4b50)[2] + 14)
            #expect(StoredZip.crc32(Data(served.bytes[image..<image + 4096])) != stated)
            #expect(StoredZip.crc32(ScriptedBed.randomBytes(count: 4096, seed: 1)) == stated)
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let before = FolderSnapshot(bed.libraryFolder.appendingPathComponent("Issues"))
            let error = await #expect(throws: LibraryError.self) { try await library.download("f-1") }
            guard case .unpackFailed("f-1", .checksumMismatch(_, let entry, _, _))? = error else {
                Issue.record("expected a CRC-32 failure, got \(String(describing: error))")
                return
            }
            #expect(entry == "1-0.png")
            #expect("\(error!)".contains("'1-0.png' fails its CRC-32 check"), "\(error!)")
            #expect(await library.issue(named: "f-1")?.status == IssueStatus.none)
            #expect(FolderSnapshot(bed.libraryFolder.appendingPathComponent("Issues")) == before, "the library is as it was")
        }
    }

    /// A forged index in the bundle, at its root or under the one folder a bundle zipped with
    /// its enclosing folder has (which becomes the root), is refused with the entry named.
    @Test(arguments: [".newsstand-index.json", "f-1/.newsstand-index.json"])
    func aForgedInstalledIndexInABundleIsRefused(path: String) async throws {
        try await ScriptedBed.with { bed in
            let prefix = path.hasPrefix("f-1/") ? "f-1/" : ""
            let forged = #"{"format":"newsstand-bundle-index","version":1,"bundle":{"size":1,"sha256":"00"},"entries":[]}"#
            let bundle: [StoredZip.Entry] = [
                .text(prefix + "issue.plist", "<plist><dict/></plist>"), .text(prefix + "pages.plist", "<plist><array/></plist>"),
                .text(path, forged),
            ]
            try Self.publishFiveKeys(bed, bundle)
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let error = await #expect(throws: LibraryError.self) { try await library.download("f-1") }
            guard case .unpackFailed("f-1", .reservedName(_, let entry))? = error else {
                Issue.record("expected a reserved name, got \(String(describing: error))")
                return
            }
            #expect(entry == path)
            #expect(await library.issue(named: "f-1")?.status == IssueStatus.none)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: bed.libraryFolder.appendingPathComponent("Issues").path) == []
            )
        }
    }

    /// An app's own unpacker that lets hidden names through: the library still refuses the
    /// planted record before the content is put in place. (`ZipExtractor` itself refuses hidden
    /// names since issue 35, so this one unpacks the record under a plain name and gives it its
    /// hidden one, as an unpacker without that rule would have written it.)
    struct PermissiveUnpacker: BundleUnpacker {
        static let plantedAs = "newsstand-index.json"

        func unpack(_ archive: URL, into destination: URL, limits: ZipExtractionLimits) throws(ZipExtractionError) {
            try ZipExtractor.extract(from: archive, into: destination, limits: limits)
            let planted = destination.appendingPathComponent(Self.plantedAs)
            guard rename(planted.path, destination.appendingPathComponent(".newsstand-index.json").path) == 0 else {
                throw .writeFailed(path: planted.path, reason: "cannot give it its hidden name")
            }
        }
    }

    @Test func aForgedIndexIsRefusedWhateverTheUnpacker() async throws {
        try await ScriptedBed.with { bed in
            try Self.publishFiveKeys(
                bed, ScriptedBed.IssueSpec.pages(scale: "") + [.text(PermissiveUnpacker.plantedAs, "{}")])
            let library = try bed.library { $0.unpacker = PermissiveUnpacker() }
            try await library.refresh(from: bed.catalogURL)
            let error = await #expect(throws: LibraryError.self) { try await library.download("f-1") }
            guard case .unpackFailed("f-1", .reservedName(_, ".newsstand-index.json"))? = error else {
                Issue.record("expected a reserved name, got \(String(describing: error))")
                return
            }
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: bed.libraryFolder.appendingPathComponent("Issues").path) == []
            )
        }
    }
}
