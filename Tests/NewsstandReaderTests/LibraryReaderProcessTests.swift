import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// `LibraryReader` beside a writer in another process (`newsstand library`, on nginx): the
/// reader in this process sees that process's commits as they come.
@Suite("Library reader with a writer in another process", .timeLimit(.minutes(1)), .tags(.needsServer))
struct LibraryReaderProcessTests {
    /// A writer in another process (`newsstand library`) refreshes and downloads while the reader
    /// reads: it sees each commit, the downloading status included, without waiting for the writer.
    @Test func aReaderFollowsAWriterInAnotherProcess() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("f-1", day: 1, normal: DownloadTests.bigBundle, location: "slow/")])
            let shelf = bed.libraryFolder.path
            let refreshed = try Shell.run(Shell.newsstand, ["library", shelf, "refresh", bed.catalogURL.absoluteString])
            try #require(refreshed.status == 0, "\(refreshed.stderr)")
            let reader = try LibraryReader(folder: bed.libraryFolder)
            #expect(try await reader.issues().map(\.name) == ["f-1"])

            let writer = try BackgroundProcess(Shell.newsstand, ["library", shelf, "download", "f-1"])
            defer { writer.kill() }
            var seen: [String] = []
            while seen.last != "available" {
                let status = try await reader.issue(named: "f-1")?.status.label ?? "missing"
                if seen.last != status { seen.append(status) }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            #expect(writer.wait() == 0, "\(writer.errors)")
            #expect(seen == ["none", "downloading", "available"])
            #expect(try await reader.content(of: "f-1").articles.isEmpty)
        }
    }
}
