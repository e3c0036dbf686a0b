import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandTestSupport
import Testing

/// A rewritten catalog gets a modification time in a later whole second than the one it
/// replaces: nginx's `ETag` is the mtime's seconds and the size, and a catalog rewritten within
/// the same second at the same size (only hashes and content-named URLs changed) kept the old
/// ETag, so a reader holding it was told `304 Not Modified` about the new catalog for good
/// (`LibraryUpdateCommandTests` saw it end to end).
@Suite struct CatalogTimesTests {
    private func build(_ fixture: MagazineFixture, into output: URL) async throws {
        let (magazine, plans) = try fixture.plans()
        _ = try await offPool {
            try MagazineBuilder(magazine: magazine, options: BuildOptions(output: output, jobs: 1, versioned: false)).build(plans)
        }
    }

    private func modified(_ url: URL) throws -> Int {
        Int(
            try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
                .timeIntervalSince1970)
    }

    private func setModified(_ url: URL, _ seconds: Int) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: Double(seconds))], ofItemAtPath: url.path)
    }

    @Test func aCatalogRewrittenInTheSameSecondMovesToTheNextOne() async throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        try await build(fixture, into: output)
        let catalog = output.appendingPathComponent("issues.plist")
        // The old catalog's second is now or later (a clock step back, or the same second):
        // the new one must still be later than it.
        let ahead = Int(Date().timeIntervalSince1970) + 1_000
        try setModified(catalog, ahead)
        let before = try Data(contentsOf: catalog)
        try fixture.write(
            "issues/f-1/issue.plist",
            try String(contentsOf: fixture.url("issues/f-1/issue.plist"), encoding: .utf8)
                .replacingOccurrences(of: "Issue f-1", with: "Issue f-9"))
        try await build(fixture, into: output)
        #expect(try Data(contentsOf: catalog) != before)
        #expect(try Data(contentsOf: catalog).count == before.count, "same size: only the mtime can tell them apart")
        #expect(try modified(catalog) == ahead + 1)
    }

    @Test func aCatalogRewrittenLaterKeepsTheClocksTime() async throws {
        let fixture = try MagazineFixture()
        let output = try Shell.temporaryFolder()
        try await build(fixture, into: output)
        let catalog = output.appendingPathComponent("issues.plist")
        let past = Int(Date().timeIntervalSince1970) - 1_000
        try setModified(catalog, past)
        try fixture.write(
            "issues/f-1/issue.plist",
            try String(contentsOf: fixture.url("issues/f-1/issue.plist"), encoding: .utf8)
                .replacingOccurrences(of: "Issue f-1", with: "Issue f-9"))
        let start = Int(Date().timeIntervalSince1970)
        try await build(fixture, into: output)
        #expect(try modified(catalog) >= start)
    }
}
