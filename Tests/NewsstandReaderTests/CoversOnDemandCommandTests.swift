import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// The command line's covers on demand, on nginx: `refresh --covers 0`, then `cover <name>`
/// prints the cached file or says why there is none.
@Suite("Covers on demand from the command line", .timeLimit(.minutes(1)), .tags(.needsServer))
struct CoversOnDemandCommandTests {
    @Test func theCommandLineFetchesACoverOnDemandAndSaysWhyOneIsMissing() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            try FileManager.default.removeItem(at: bed.nginx.root.appendingPathComponent("a/cover.png"))
            let url = bed.nginx.baseURL.absoluteString + "a/cover.png"
            let shelf = try Shell.temporaryFolder("covers-cli")
            let refresh = try Shell.run(
                Shell.newsstand, ["library", shelf.path, "refresh", bed.catalogURL.absoluteString, "--covers", "0"])
            #expect(refresh.status == 0, "\(refresh.stderr)")
            let cover = try Shell.run(Shell.newsstand, ["library", shelf.path, "cover", "b"])
            #expect(cover.status == 0)
            #expect(cover.stdout == shelf.appendingPathComponent("Covers/b.png").path + "\n")
            let missing = try Shell.run(Shell.newsstand, ["library", shelf.path, "cover", "a"])
            #expect(missing.status == 1)
            #expect(missing.stderr == "newsstand library: error: cover of 'a' ('\(url)') not fetched: HTTP 404\n")
        }
    }
}
