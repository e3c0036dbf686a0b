import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Issue 23, item 7, on the update path: a fetched record whose bytes do not have the CRC-32 of
/// its header is refused, even when the index's SHA-256 for the entry matches those bytes (a
/// publisher's tool that indexed what it served). libarchive reported the mismatch as a warning,
/// which the range update took for success.
@Suite("CRC-32 of fetched records", .timeLimit(.minutes(1)))
struct RangeRecordCRCTests {
    @Test func aFetchedRecordWithAWrongCRCIsRefused() async throws {
        try await ScriptedBed.with { bed in
            var pages = RangeUpdateTests.twelve
            pages[4].seed = 99
            let library = try await RangeUpdateTests.installed(bed, RangeUpdateTests.twelve, then: pages)
            let installed = try #require(await library.issue(named: "m")).contentURL
            let before = FolderSnapshot(installed)

            // One byte of page-5's stored data flipped in the served bundle, and the index and
            // catalog made again from the bytes served: only the record's CRC-32 can tell.
            let entry = try RangeUpdateTests.servedEntry(bed, "page-5.png")
            var bundle = try bed.served("m/m.zip")
            bundle[Int(entry.dataOffset) + 500] ^= 0x10
            bed.serve(bundle, at: "m/m.zip")
            var index = try BundleIndex.decode(bed.served("m/m.index.json"))
            index.bundleSHA256 = SHA256.hex(of: bundle)
            let position = try #require(index.entries.firstIndex { $0.name == "page-5.png" })
            index.entries[position].sha256 = SHA256.hex(
                of: bundle.subdata(in: Int(entry.dataOffset)..<Int(entry.dataOffset + entry.dataLength)))
            bed.serve(index.encoded(), at: "m/m.index.json")
            var entries = try Catalog.decode(bed.served("issues.plist")).entries
            entries[0].contentSHA256 = index.bundleSHA256
            entries[0].contentIndexSize = index.encoded().count
            entries[0].contentIndexSHA256 = SHA256.hex(of: index.encoded())
            try bed.writeCatalog(entries)
            _ = try await library.refresh()

            let error = await #expect(throws: LibraryError.self) { try await library.update("m") }
            // The ranges were refused for the CRC-32, then the whole bundle too, when unpacked.
            guard case .unpackFailed("m", .checksumMismatch(_, "page-5.png", _, _))? = error else {
                Issue.record("expected the whole bundle to fail its CRC-32 too, got \(String(describing: error))")
                return
            }
            let events = bed.allRequests().filter { $0.uri == "/m/m.zip" }.map { "\($0.status)" }
            #expect(events.contains("206") && events.last == "200", "ranges tried first, then the whole bundle: \(events)")
            #expect(await library.issue(named: "m")?.status == .available, "the installed version stays")
            #expect(FolderSnapshot(installed) == before, "the installed version is unchanged")
        }
    }
}
