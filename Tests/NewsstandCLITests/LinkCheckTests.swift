import Foundation
import NewsstandTestSupport
import Testing

/// Every relative link and anchor in the repository's Markdown files leads somewhere: the
/// README, the guides, the generated reference, CONTRIBUTING, ARCHITECTURE and the rest link
/// into each other, and a moved section must not leave a dead link behind.
@Suite struct LinkCheckTests {
    @Test func everyRelativeLinkAndAnchorInTheRepositoryResolves() throws {
        let links = MarkdownLinks(root: Shell.repositoryRoot)
        let files = links.markdownFiles()
        #expect(files.contains("README.md") && files.contains("docs/reference/commands/build.md"), "\(files)")
        let broken = try links.broken()
        #expect(broken.isEmpty, "broken links:\n\(broken.map(\.description).joined(separator: "\n"))")
    }

    /// The check finds what it is for: a missing file, a missing heading, a link out of the
    /// folder, and nothing inside code.
    @Test func theCheckFindsBrokenLinksAndOnlyThose() throws {
        let root = try Shell.temporaryFolder("links")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("docs"), withIntermediateDirectories: true)
        try Data(
            """
            # Guide: the `issues.plist` (part 1)

            ## Same
            ## Same

            [ok](../README.md#top) [self](#guide-the-issuesplist-part-1) [again](#same-1) [image](pic.png)
            [gone](missing.md) [no heading](../README.md#nowhere) [out](../../etc/passwd)
            [web](https://example.com/x) `[code](missing.md)`

            ```
            [fenced](missing.md)
            ```
            [label]: other.md
            """.utf8
        ).write(to: root.appendingPathComponent("docs/guide.md"))
        try Data("# Top\n".utf8).write(to: root.appendingPathComponent("README.md"))
        try Data().write(to: root.appendingPathComponent("docs/pic.png"))
        let broken = try MarkdownLinks(root: root).broken()
        #expect(broken.map(\.target) == ["missing.md", "../README.md#nowhere", "../../etc/passwd", "other.md"], "\(broken)")
        #expect(broken.map(\.line) == [7, 7, 7, 13])
    }
}
