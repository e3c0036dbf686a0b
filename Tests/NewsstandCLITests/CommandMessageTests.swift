import Foundation
import NewsstandTestSupport
import Testing

/// Messages that name the problem and the fix, for mistakes found before anything is fetched.
@Suite struct CommandMessageTests {
    @Test func refreshFromAPathSaysItIsNotAURLAndWhereTheCatalogIs() async throws {
        let shelf = try Shell.temporaryFolder("refresh-path").appendingPathComponent("shelf").path
        let result = await InProcess.newsstand(["library", shelf, "refresh", "output/aurora/issues.plist"])
        #expect(result.status == 2)
        #expect(
            result.stderr.contains(
                "'output/aurora/issues.plist' is not a URL: refresh reads the catalog as readers get it, at its published URL"),
            "\(result.stderr)")
        #expect(result.stderr.contains("publish the built folder with 'newsstand publish' first"))
        let missing = await InProcess.newsstand(["library", shelf, "refresh"])
        #expect(missing.status == 2 && missing.stderr.contains("refresh needs one <catalog-url>"), "\(missing.stderr)")
    }

    @Test func catalogOffersOnlyTheFeedsItWrites() async throws {
        let help = await InProcess.newsstand(["catalog", "--help"])
        #expect(help.stdout.contains("[--feed shelf|atom|opds]"), "\(help.stdout)")
        #expect(!help.stdout.contains("opds|epub"))
        let epub = await InProcess.newsstand(["catalog", "out", "--magazine", "m", "--feed", "epub"])
        #expect(epub.status == 2)
        #expect(epub.stderr.contains("unknown feed 'epub'; expected shelf, atom or opds"), "\(epub.stderr)")
    }
}
