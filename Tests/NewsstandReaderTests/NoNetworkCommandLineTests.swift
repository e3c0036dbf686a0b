import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// The command line without any network: libcurl in a network namespace of its own.
@Suite("Network policy without a network", .timeLimit(.minutes(1)), .tags(.needsServer))
struct NoNetworkCommandLineTests {
    /// Without a network at all (a process in a network namespace of its own, as root), libcurl's
    /// connect fails with no route: `newsstand library` says so and keeps the partial download.
    @Test(.enabled(if: geteuid() == 0, "a network namespace of its own needs root, which CI has"))
    func withoutANetworkTheCommandLineSaysSo() async throws {
        let namespace = try Shell.run("unshare", ["-n", "true"])
        try #require(namespace.status == 0, "unshare -n as root: \(namespace.stderr)")
        try await Testbed.with { bed in
            let entries = try bed.publish([.init("a", day: 1)])
            let shelf = bed.libraryFolder.path
            #expect(try Shell.run(Shell.newsstand, ["library", shelf, "refresh", bed.catalogURL.absoluteString]).status == 0)
            let offline = try Shell.run("unshare", ["-n", Shell.newsstand, "library", shelf, "download", "a"])
            #expect(offline.status == 1)
            #expect(offline.stderr == "newsstand library: error: cannot fetch '\(entries[0].content)': no network connection\n")
            let refresh = try Shell.run(
                "unshare", ["-n", Shell.newsstand, "library", shelf, "refresh", bed.catalogURL.absoluteString])
            #expect(refresh.stderr.contains("no network connection"), "\(refresh.stderr)")
            #expect(
                try Shell.run(Shell.newsstand, ["library", shelf, "download", "a"]).status == 0, "works again with a network")
        }
    }
}
