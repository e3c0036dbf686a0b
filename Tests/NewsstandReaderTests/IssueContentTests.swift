import Foundation
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Reading an issue: pages decoded by class, assets resolved for the scale, the cursor at every edge.
@Suite(.tags(.needsTools)) struct IssueContentTests {
    /// The sample's issue a-1, built by `newsstand build` and unpacked from both bundles.
    static func sampleIssue() throws -> (normal: URL, retina: URL) {
        let work = try Shell.temporaryFolder("content")
        let output = work.appendingPathComponent("out")
        let build = try Shell.run(
            Shell.newsstand,
            [
                "build", Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path, "--output", output.path, "--issue",
                "a-1",
            ])
        guard build.status == 0 else { throw TestFailure(build.stderr) }
        let normal = work.appendingPathComponent("normal")
        let retina = work.appendingPathComponent("retina")
        let built = try BuiltIssue("a-1", in: output)
        try Shell.run("unzip", ["-q", output.appendingPathComponent("a-1/\(built.bundle)").path, "-d", normal.path])
        try Shell.run("unzip", ["-q", output.appendingPathComponent("a-1/\(built.retinaBundle)").path, "-d", retina.path])
        return (normal, retina)
    }

    @Test func sampleIssuePagesAreDecodedForEachScale() throws {
        let (normal, retina) = try Self.sampleIssue()
        let content = try IssueContent(contentsOf: normal, scale: .normal)
        #expect(content.title == "Aurora — Spring 2026")
        #expect(content.articles.count == 5)
        let first = try #require(content.articles[0][0].page(as: SimplePage.self))
        #expect(first.baseImage == normal.appendingPathComponent("1-0.png"))
        let photoPage = try #require(content.articles.joined().lazy.compactMap { $0.page(as: PhotoPage.self) }.first)
        #expect(!photoPage.photos.isEmpty)
        #expect(content.articles.joined().allSatisfy { $0.error == nil })

        let retinaContent = try IssueContent(contentsOf: retina, scale: .retina)
        let retinaFirst = try #require(retinaContent.articles[0][0].page(as: SimplePage.self))
        #expect(retinaFirst.baseImage == retina.appendingPathComponent("1-0@2x.png"))
    }

}

/// An app's own page type, registered by name.
struct VideoPage: IssuePage {
    static let className = "VideoPage"
    var movie: URL
    var loops: Bool

    init(properties: PageProperties) throws(ContentError) {
        movie = try properties.asset("movie")
        loops = properties.values["loop"]?.boolean ?? false
    }
}
