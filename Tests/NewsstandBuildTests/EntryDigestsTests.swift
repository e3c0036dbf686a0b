import NewsstandArchive
import Testing

@testable import NewsstandBuild

/// A bundle's entry hashes come from two places (stored entries from the archive's bytes,
/// deflated ones from their content): put back in the archive's order, and a build fails
/// rather than give the index a hash that is missing or left over.
struct EntryDigestsTests {
    @Test func storedAndDeflatedEntriesKeepTheArchivesOrder() throws {
        let digests = try BundleBuilder.entryDigests(
            of: "a.zip", stored: [false, true, false, true, true], fromArchive: [1: "b", 3: "d", 4: "e"], packed: ["a", "c"])
        #expect(digests == ["a", "b", "c", "d", "e"])
    }

    @Test func aMissingOrLeftOverHashFailsTheBuild() {
        #expect(throws: ArchiveError.self) {
            try BundleBuilder.entryDigests(of: "a.zip", stored: [false, true], fromArchive: [:], packed: ["a"])
        }
        #expect(throws: ArchiveError.self) {
            try BundleBuilder.entryDigests(of: "a.zip", stored: [false], fromArchive: [:], packed: ["a", "b"])
        }
        #expect(throws: ArchiveError.self) {
            try BundleBuilder.entryDigests(of: "a.zip", stored: [false, false], fromArchive: [:], packed: ["a"])
        }
    }
}
