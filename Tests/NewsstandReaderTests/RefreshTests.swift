import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Refresh on a scripted transport (the fast tier): the same catalog rules as on nginx.
@Suite("Refresh", .timeLimit(.minutes(1)))
struct RefreshTests {
    @Test func refreshAddsIssuesNewestFirstAndAnUnchangedCatalogCostsA304() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("f-1", day: 1), .init("f-3", day: 3), .init("f-2", day: 2)])
            let library = try bed.library()
            let first = try await library.refresh(from: bed.catalogURL)
            #expect(first.added == ["f-1", "f-2", "f-3"])
            #expect(first.notModified == false)
            #expect(first.problems.isEmpty)
            let issues = await library.issues
            #expect(issues.map(\.name) == ["f-3", "f-2", "f-1"])
            #expect(issues.allSatisfy { $0.status == .none && $0.isInCatalog })
            let cover = try #require(issues[0].coverFileURL)
            #expect(try String(contentsOf: cover, encoding: .utf8) == "cover f-3")

            let second = try await library.refresh()
            #expect(second.notModified)
            #expect(!second.hasChanges)
            #expect(bed.requests("issues.plist", atLeast: 2).map(\.status) == [200, 304])
            #expect(bed.requests("f-3/cover.png").count == 1, "an unchanged cover is not fetched again")
        }
    }

    /// A static server sends both an ETag and a Last-Modified, so a 304 could come from either:
    /// each alone must still make an unchanged catalog cost a 304 (the scripted transport's
    /// `etag-only/` and `modified-only/` send one each, with nginx's rules).
    @Test(arguments: ["etag-only", "modified-only"])
    func eachValidatorAloneMakesAnUnchangedCatalogA304(location: String) async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("f-1", day: 1)])
            let library = try bed.library()
            let url = bed.baseURL.appendingPathComponent("\(location)/issues.plist")
            let first = try await library.refresh(from: url)
            #expect(first.added == ["f-1"])
            let second = try await library.refresh()
            #expect(second.notModified)
            #expect(bed.requests("\(location)/issues.plist", atLeast: 2).map(\.status) == [200, 304])
        }
    }

    @Test func refreshUpdatesDropsAndKeepsDownloadedIssues() async throws {
        try await ScriptedBed.with { bed in
            let entries = try bed.publish([.init("a", day: 1), .init("b", day: 2), .init("c", day: 3)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            try await library.download("a")

            var changed = entries.filter { $0.name != "b" && $0.name != "a" }
            changed[0].title = "New title"
            try bed.writeCatalog(changed)
            let result = try await library.refresh()
            #expect(result.removed == ["b"])
            #expect(result.updated == ["a", "c"])
            #expect(await library.issue(named: "b") == nil)
            let kept = try #require(await library.issue(named: "a"))
            #expect(kept.status == .available)
            #expect(kept.isInCatalog == false)
            #expect(await library.issue(named: "c")?.title == "New title")
        }
    }

    @Test func aChangedChecksumMarksADownloadedIssueAsUpdated() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            try await library.download("a")
            try bed.publish([.init("a", day: 1, normal: ScriptedBed.IssueSpec.pages(scale: "", seed: 99))])
            let result = try await library.refresh()
            #expect(result.contentUpdates == ["a"])
            #expect(await library.issue(named: "a")?.hasUpdate == true)
            let updated = try await library.download("a")
            #expect(updated.hasUpdate == false)
            let image = try Data(contentsOf: updated.contentURL.appendingPathComponent("1-0.png"))
            #expect(image == ScriptedBed.randomBytes(count: 4096, seed: 99))
        }
    }

    @Test func aMalformedCatalogChangesNothing() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            bed.serve(Data("<plist><dict>".utf8), at: "issues.plist")
            await #expect(
                throws: LibraryError.catalogMalformed(
                    url: bed.catalogURL.absoluteString,
                    reason: "not a property list: the catalog ends before its root value does (at byte 13)")
            ) {
                try await library.refresh()
            }
            #expect(await library.issues.map(\.name) == ["a"])
            await library.close()
            let reopened = try bed.library()
            #expect(await reopened.issues.map(\.name) == ["a"])
        }
    }

    @Test func unsafeNamesAreSkippedAndTheRestIsUsed() async throws {
        try await ScriptedBed.with { bed in
            let base = bed.baseURL.absoluteString
            let evil = CatalogEntry(name: "../evil", title: "Evil", date: Date(), cover: base + "x.png", content: base + "x.zip")
            let hidden = CatalogEntry(
                name: ".hidden", title: "Hidden", date: Date(), cover: base + "y.png", content: base + "y.zip")
            try bed.publish([.init("good", day: 1)], catalog: [evil, hidden])
            let library = try bed.library()
            let result = try await library.refresh(from: bed.catalogURL)
            #expect(result.added == ["good"])
            #expect(result.problems.contains(.unsafeName("../evil")))
            #expect(result.problems.contains(.unsafeName(".hidden")))
            #expect(await library.issues.map(\.name) == ["good"])
        }
    }

    @Test func anIssueListedTwiceTakesTheFirstEntry() async throws {
        try await ScriptedBed.with { bed in
            let base = bed.baseURL.absoluteString
            let day = { (n: Int) in Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 86_400) }
            // Newest first in the catalog: "First" comes before "Second".
            let first = CatalogEntry(
                name: "twice", title: "First", date: day(3), cover: base + "t1.png", content: base + "t1.zip")
            let second = CatalogEntry(
                name: "twice", title: "Second", date: day(2), cover: base + "t2.png", content: base + "t2.zip")
            try bed.publish([.init("good", day: 1)], catalog: [first, second])
            let library = try bed.library()
            let result = try await library.refresh(from: bed.catalogURL)
            #expect(result.added == ["good", "twice"])
            #expect(result.problems.contains(.badEntry(name: "twice", reason: "listed twice; the first entry is used")))
            #expect(await library.issue(named: "twice")?.title == "First")
        }
    }

    @Test func catalogErrorsAreTyped() async throws {
        try await ScriptedBed.with { bed in
            let library = try bed.library()
            await #expect(throws: LibraryError.noCatalogURL) { try await library.refresh() }
            let missing = bed.baseURL.appendingPathComponent("missing.plist")
            await #expect(throws: LibraryError.catalogHTTPStatus(url: missing.absoluteString, status: 404)) {
                try await library.refresh(from: missing)
            }
        }
    }

    @Test func scaleIsFixedAtCreationAndPicksRetinaFiles() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("f-2", day: 1)])
            let library = try bed.library(scale: .retina)
            try await library.refresh(from: bed.catalogURL)
            let issue = try await library.download("f-2")
            #expect(issue.remoteContentURL.lastPathComponent == "f-2@2x.zip")
            #expect(FileManager.default.fileExists(atPath: issue.contentURL.appendingPathComponent("1-0@2x.png").path))
            #expect(try String(contentsOf: #require(issue.coverFileURL), encoding: .utf8) == "cover@2x f-2")
            #expect(bed.requests("f-2/f-2@2x.zip").map(\.status) == [200])
            #expect(bed.requests("f-2/cover@2x.png").count == 1)
            #expect(bed.allRequests().allSatisfy { $0.uri != "/f-2/f-2.zip" && $0.uri != "/f-2/cover.png" })

            await library.close()
            let reopened = try bed.library(scale: .normal)
            #expect(reopened.scale == .retina)
        }
    }
}
