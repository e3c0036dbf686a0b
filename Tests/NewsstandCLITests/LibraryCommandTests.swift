import Foundation
import NewsstandTestSupport
import Testing

/// `newsstand library`: the reader library in a terminal, against the sample served by nginx.
@Suite struct LibraryCommandTests {
    @Test func refreshListDownloadRemove() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let work = try Shell.temporaryFolder("library-cli")
        let magazine = try nginx.sampleMagazine(in: work)
        #expect(try Shell.run(Shell.newsstand, ["build", magazine.path, "--output", nginx.root.path]).status == 0)
        let shelf = work.appendingPathComponent("shelf").path
        func library(_ arguments: String...) throws -> Shell.Result {
            try Shell.run(Shell.newsstand, ["library", shelf] + arguments)
        }
        let catalog = nginx.baseURL.absoluteString + "issues.plist"

        var result = try library("refresh", catalog, "--retina")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "3 added, 0 updated, 0 with new content, 0 removed\n")
        #expect(try library("refresh", catalog).stdout == "catalog not modified\n")

        result = try library("download", "--latest")
        #expect(result.status == 0, "\(result.stderr)")
        let bundle = try BuiltIssue("a-3", in: nginx.root).retinaBundle
        #expect(nginx.requests().contains { $0.uri == "/a-3/\(bundle)" && $0.status == 200 })

        result = try library("list", "--format", "json")
        let issues = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(issues.map { $0["name"] as? String } == ["a-3", "a-2", "a-1"])
        #expect(issues.map { $0["status"] as? String } == ["available", "none", "none"])
        let path = try #require(issues.first?["path"] as? String)
        #expect(FileManager.default.fileExists(atPath: path + "/1-0@2x.png"))

        let text = try library("list").stdout.split(separator: "\n")
        #expect(text.first?.hasPrefix("a-3\t2026-09-01\tavailable\t") == true)

        #expect(try library("remove", "a-3").status == 0)
        #expect(try library("list").stdout.contains("a-3\t2026-09-01\tnone"))

        let unknown = try library("download", "a-9")
        #expect(unknown.status == 1)
        #expect(!unknown.stderr.isEmpty && unknown.stderr.split(separator: "\n").count == 1)
        #expect(try library("frobnicate").status == 2)
    }
}
