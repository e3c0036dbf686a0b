import Foundation
import NewsstandTestSupport
import Testing

/// The Newsstand feed's rules as `validate`, `build` and `catalog` report them, run in process.
/// The sample's feeds and Baker books checked with tools we did not write are in `FeedOutputTests`.
@Suite struct FeedRuleCommandTests {
    let feeds = FeedOutputTests()

    @Test func feedRulesAreValidationWarningsAndStrictMakesThemFail() async throws {
        let magazine = try Shell.temporaryFolder().appendingPathComponent("mag")
        try FileManager.default.copyItem(atPath: feeds.sample, toPath: magazine.path)
        let issue = magazine.appendingPathComponent("issues/a-1/issue.plist")
        let text = try String(contentsOf: issue, encoding: .utf8)
        let summary = try #require(text.range(of: #"<string>Northern lights[^<]*</string>"#, options: .regularExpression))
        try text.replacingCharacters(in: summary, with: "<string>Short.</string>").write(
            to: issue, atomically: true, encoding: .utf8)
        let expected =
            "issues/a-1/issue.plist:14: warning: issue 'a-1' Summary is 6 bytes of UTF-8; the Newsstand feed needs 10 to 2,000 [NS-601]"
        let plain = await InProcess.newsstand(["validate", magazine.path])
        #expect(plain.status == 0 && !plain.stdout.contains("NS-601"))
        let warned = await InProcess.newsstand(["validate", magazine.path, "--feed", "atom"])
        #expect(warned.status == 0)
        #expect(warned.stdout.contains(expected), "\(warned.stdout)")
        let strict = await InProcess.newsstand(["validate", magazine.path, "--feed", "atom", "--strict"])
        #expect(strict.status == 1)
        let ignored = await InProcess.newsstand(["validate", magazine.path, "--feed", "atom", "--strict", "--ignore", "NS-601"])
        #expect(ignored.status == 0)
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let build = await InProcess.newsstand(["build", magazine.path, "--output", output.path, "--feed", "atom", "--strict"])
        #expect(build.status == 1)
        #expect(build.stdout.contains(expected))
        #expect(!FileManager.default.fileExists(atPath: output.path), "nothing is written")
    }

    @Test func theCatalogCommandChecksTheRulesAndKeepsTheTimes() async throws {
        let magazine = try Shell.temporaryFolder().appendingPathComponent("mag")
        try FileManager.default.copyItem(atPath: feeds.sample, toPath: magazine.path)
        let issue = magazine.appendingPathComponent("issues/a-2/issue.plist")
        let text = try String(contentsOf: issue, encoding: .utf8)
        let summary = try #require(text.range(of: #"<string>Белые[^<]*</string>"#, options: .regularExpression))
        try text.replacingCharacters(in: summary, with: "<string>Ночи.</string>").write(
            to: issue, atomically: true, encoding: .utf8)
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let built = await InProcess.newsstand(
            ["build", magazine.path, "--output", output.path, "--feed", "atom"], environment: feeds.epoch)
        #expect(built.status == 0)
        #expect(
            built.stdout.contains(
                "issues/a-2/issue.plist:14: warning: issue 'a-2' Summary is 9 bytes of UTF-8; the Newsstand feed needs 10 to 2,000 [NS-601]"
            ))
        let feed = try Data(contentsOf: output.appendingPathComponent("atom.xml"))
        // `catalog` validates nothing: it checks the built issues (no line: the manifest's summary)
        // and, a day later, keeps every entry's time from the records.
        let catalog = await InProcess.newsstand(
            ["catalog", output.path, "--magazine", magazine.path, "--feed", "atom"],
            environment: ["SOURCE_DATE_EPOCH": "1790086400"])
        #expect(catalog.status == 0, "\(catalog.stderr)")
        #expect(
            catalog.stdout.contains(
                "issues/a-2/issue.plist: warning: issue 'a-2' Summary is 9 bytes of UTF-8; the Newsstand feed needs 10 to 2,000 [NS-601]"
            ), "\(catalog.stdout)")
        #expect(try Data(contentsOf: output.appendingPathComponent("atom.xml")) == feed)
    }
}
