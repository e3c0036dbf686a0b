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
@Suite("Installed index trust", .timeLimit(.minutes(1)))
struct InstalledIndexTrustTests {
    static let twelve = (1...12).map { (page: $0, seed: $0) }

    static let changed = {
        var pages = twelve
        pages[4].seed = 99
        return pages
    }()

    /// Which bundle the content folder holds: "old" (twelve pages), "new" (page 5 changed).
    static func installedVersion(_ bed: ScriptedBed) throws -> String {
        try bed.installedVersion(of: "m", old: ScriptedBed.pagedBundle(twelve), new: ScriptedBed.pagedBundle(changed))
    }

    /// Downloads twelve pages, publishes page 5 changed, refreshes, and forges the installed
    /// index from the new bundle's; returns the library.
    static func forged(_ bed: ScriptedBed) async throws -> IssueLibrary {
        try bed.publishIndexed([ScriptedBed.paged("m", twelve)])
        let library = try bed.library()
        try await library.refresh(from: bed.catalogURL)
        try await library.download("m")
        try bed.publishIndexed([ScriptedBed.paged("m", changed)])
        #expect(try await library.refresh().contentUpdates == ["m"])
        let installed = bed.libraryFolder.appendingPathComponent("Issues/m/.newsstand-index.json")
        try FileManager.default.removeItem(at: installed)
        try bed.served("m/m.index.json").write(to: installed)
        return library
    }

    /// An open does not mark the update done from the index: the record still names the old bundle.
    @Test func aForgedIndexDoesNotMarkAnUpdateDoneOnOpen() async throws {
        try await ScriptedBed.with { bed in
            let library = try await Self.forged(bed)
            await library.close()
            let reopened = try bed.library()
            let issue = try #require(await reopened.issue(named: "m"))
            #expect(issue.status == .available && issue.hasUpdate, "the update is still to be done")
            #expect(try Self.installedVersion(bed) == "old")
            #expect(try await reopened.update("m") == .full(.noInstalledIndex))
            #expect(try Self.installedVersion(bed) == "new")
            #expect(try await bed.violations(of: reopened, allowsDownloading: false) == [])
        }
    }

    /// An update does not keep the old page 5 because the forged index gives it the new hash:
    /// an index describing another bundle than the installed one is no index.
    @Test func aForgedIndexIsNotTrustedByAnUpdate() async throws {
        try await ScriptedBed.with { bed in
            let library = try await Self.forged(bed)
            #expect(try await library.update("m") == .full(.noInstalledIndex))
            #expect(try Self.installedVersion(bed) == "new")
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
        }
    }
}
