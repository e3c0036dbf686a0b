import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// The installed index (`.newsstand-index.json` in the content folder) is a file among the
/// content's, and a bundle could carry one (issue 23 §8): it is trusted only when it describes
/// the bundle the issue's record says is installed, and it never decides which version is.
/// Here a forged one claims the update's bundle (its index as served, word for word) while the
/// old files stay: neither an open nor an update takes it at its word.
@Suite("Installed index trust", .timeLimit(.minutes(1)), .tags(.needsServer))
struct InstalledIndexTrustTests {
    static let twelve = (1...12).map { (page: $0, seed: $0) }

    /// Downloads twelve pages, publishes page 5 changed, refreshes, and forges the installed
    /// index from the new bundle's; returns the library and the old bundle's copy.
    static func forged(_ bed: Testbed) async throws -> (IssueLibrary, URL) {
        try bed.publishIndexed([Testbed.paged("m", twelve)])
        let library = try bed.library()
        try await library.refresh(from: bed.catalogURL)
        try await library.download("m")
        let old = bed.libraryFolder.deletingLastPathComponent().appendingPathComponent("old-\(UUID().uuidString).zip")
        try FileManager.default.copyItem(at: bed.nginx.root.appendingPathComponent("m/m.zip"), to: old)
        var pages = twelve
        pages[4].seed = 99
        try bed.publishIndexed([Testbed.paged("m", pages)])
        #expect(try await library.refresh().contentUpdates == ["m"])
        let installed = bed.libraryFolder.appendingPathComponent("Issues/m/.newsstand-index.json")
        try FileManager.default.removeItem(at: installed)
        try FileManager.default.copyItem(at: bed.nginx.root.appendingPathComponent("m/m.index.json"), to: installed)
        return (library, old)
    }

    /// An open does not mark the update done from the index: the record still names the old bundle.
    @Test func aForgedIndexDoesNotMarkAnUpdateDoneOnOpen() async throws {
        try await Testbed.with { bed in
            let (library, old) = try await Self.forged(bed)
            await library.close()
            let reopened = try bed.library()
            let issue = try #require(await reopened.issue(named: "m"))
            #expect(issue.status == .available && issue.hasUpdate, "the update is still to be done")
            #expect(try UpdateCrashTests.installedVersion(bed, old: old) == "old")
            #expect(try await reopened.update("m") == .full(.noInstalledIndex))
            #expect(try UpdateCrashTests.installedVersion(bed, old: old) == "new")
            #expect(try await LibraryInvariants.violations(of: reopened, in: bed, allowsDownloading: false) == [])
        }
    }

    /// An update does not keep the old page 5 because the forged index gives it the new hash:
    /// an index describing another bundle than the installed one is no index.
    @Test func aForgedIndexIsNotTrustedByAnUpdate() async throws {
        try await Testbed.with { bed in
            let (library, old) = try await Self.forged(bed)
            #expect(try await library.update("m") == .full(.noInstalledIndex))
            #expect(try UpdateCrashTests.installedVersion(bed, old: old) == "new")
            #expect(try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false) == [])
        }
    }
}
