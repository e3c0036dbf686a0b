import Foundation
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Reading an issue written in this process: pages decoded by class, assets resolved for the
/// scale, the cursor at every edge. The sample's issue built by `newsstand build` and unpacked by
/// unzip is read in `IssueContentTests`.
@Suite struct IssueContentFixtureTests {
    /// A small issue: article 1 has 3 pages, article 2 has 1, article 3 has 2.
    private func fixture(_ pages: String, files: [String]) throws -> URL {
        let folder = try Shell.temporaryFolder("content-fixture")
        try Data(pages.utf8).write(to: folder.appendingPathComponent("pages.plist"))
        for file in files { try Data("x".utf8).write(to: folder.appendingPathComponent(file)) }
        return folder
    }

    private func simple(_ image: String) -> String {
        "<dict><key>class</key><string>SimplePage</string><key>properties</key><dict><key>baseImage</key><string>\(image)</string></dict></dict>"
    }

    @Test func cursorMovesLikeSwipesAndStopsAtEveryEdge() throws {
        let folder = try fixture(
            "<plist><array><array>\(simple("a.png"))\(simple("b.png"))\(simple("c.png"))</array><array>\(simple("d.png"))</array><array>\(simple("e.png"))\(simple("f.png"))</array></array></plist>",
            files: ["a.png", "b.png", "c.png", "d.png", "e.png", "f.png"])
        var cursor = IssueCursor(content: try IssueContent(contentsOf: folder, scale: .normal))
        func image() -> String? { cursor.current.page(as: SimplePage.self)?.baseImage.lastPathComponent }
        #expect(cursor.lastArticleIndex == 2)
        #expect(cursor.lastPageIndex(in: 0) == 2)
        #expect(image() == "a.png")
        #expect(cursor.previous == nil && cursor.upper == nil)
        var moved = cursor.moveToPreviousArticle()
        #expect(!moved)
        moved = cursor.moveToUpperPage()
        #expect(!moved)
        #expect(cursor.lower?.page(as: SimplePage.self)?.baseImage.lastPathComponent == "b.png")
        moved = cursor.moveToLowerPage() && cursor.moveToLowerPage()
        #expect(moved && image() == "c.png")
        moved = cursor.moveToLowerPage()
        #expect(!moved)
        moved = cursor.moveToNextArticle()
        #expect(moved && image() == "d.png")
        #expect(cursor.position == ReadingPosition(article: 1, page: 0))
        moved = cursor.moveToLowerPage() || cursor.moveToUpperPage()
        #expect(!moved)
        moved = cursor.moveToNextArticle() && cursor.moveToLowerPage()
        #expect(moved && image() == "f.png")
        moved = cursor.moveToNextArticle()
        #expect(!moved && cursor.next == nil)
        moved = cursor.moveToPreviousArticle()
        #expect(moved && image() == "d.png")

        let clamped = IssueCursor(content: cursor.content, position: ReadingPosition(article: 9, page: 9))
        #expect(clamped.position == ReadingPosition(article: 2, page: 1))
    }

    @Test func retinaFallsBackToTheNormalFileWhenThereIsNoRetinaOne() throws {
        let folder = try fixture(
            "<plist><array><array>\(simple("a.png"))\(simple("b.png"))</array></array></plist>",
            files: ["a.png", "a@2x.png", "b.png"])
        let content = try IssueContent(contentsOf: folder, scale: .retina)
        #expect(content.articles[0][0].page(as: SimplePage.self)?.baseImage.lastPathComponent == "a@2x.png")
        #expect(content.articles[0][1].page(as: SimplePage.self)?.baseImage.lastPathComponent == "b.png")
    }

    @Test func unknownClassesStayGenericAndAMissingAssetFailsOnlyItsPage() throws {
        let folder = try fixture(
            """
            <plist><array><array>
            <dict><key>class</key><string>VideoPage</string><key>properties</key><dict><key>movie</key><string>m.mp4</string><key>loop</key><true/></dict></dict>
            \(simple("missing.png"))
            \(simple("a.png"))
            </array></array></plist>
            """, files: ["a.png", "m.mp4"])
        let content = try IssueContent(contentsOf: folder, scale: .normal)
        let pages = content.articles[0]
        guard case .generic(let generic) = pages[0].kind else {
            Issue.record("an unknown class should be generic")
            return
        }
        #expect(generic.className == "VideoPage")
        #expect(generic.properties.values["loop"] == .boolean(true))
        #expect(try generic.properties.asset("movie").lastPathComponent == "m.mp4")
        #expect(pages[1].error == .assetMissing(name: "missing.png", property: "baseImage"))
        #expect(pages[2].page(as: SimplePage.self) != nil)

        var registry = PageRegistry.standard
        registry.register(VideoPage.self)
        let custom = try IssueContent(contentsOf: folder, scale: .normal, registry: registry)
        #expect(custom.articles[0][0].page(as: VideoPage.self)?.loops == true)
    }

    @Test func malformedConfigIsAnError() throws {
        let folder = try fixture("<plist><array><string>x</string></array></plist>", files: [])
        #expect(throws: ContentError.self) { _ = try IssueContent(contentsOf: folder, scale: .normal) }
        let empty = try Shell.temporaryFolder("content-empty")
        #expect {
            _ = try IssueContent(contentsOf: empty, scale: .normal)
        } throws: { error in
            if case .unreadable(file: "pages.plist", _) = error as? ContentError { true } else { false }
        }
    }
}
