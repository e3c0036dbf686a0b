import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// A streamed download (issue 38) in a `newsstand library download` process (libcurl) killed
/// with SIGKILL mid-stream, on nginx: nothing half-done looks done (no `Issues/<name>`), the
/// next open keeps the staging, and the download continues at the end of the last checked
/// entry, nothing checked fetched again.
@Suite("Streamed downloads of a killed process", .timeLimit(.minutes(2)), .tags(.needsServer))
struct StreamedDownloadKillTests {
    @Test func aKilledStreamContinuesAtTheEndOfItsLastCheckedEntry() async throws {
        try await Testbed.with { bed in
            let pages = (1...12).map { (page: $0, seed: $0) }
            try bed.publishIndexed([Testbed.paged("k", pages, location: "slow/")])
            let index = try BundleIndex.decode(Data(contentsOf: bed.nginx.root.appendingPathComponent("k/k.index.json")))
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            await library.close()

            let content = bed.libraryFolder.appendingPathComponent("Downloads/k.zip.part.stream/content")
            func staged() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: content.path)) ?? []).sorted() }
            let child = try BackgroundProcess(Shell.newsstand, ["library", bed.libraryFolder.path, "download", "k"])
            // Slow (100 KB/s): killed once three records are checked, wherever the bytes then are.
            for _ in 0..<1000 where staged().count < 3 { try await Task.sleep(nanoseconds: 10_000_000) }
            child.killNow()
            _ = child.wait()
            let before = staged()
            #expect(before.count >= 3 && before.count < index.entries.count, "killed mid-stream: \(before)")
            #expect(!FileManager.default.fileExists(atPath: bed.libraryFolder.appendingPathComponent("Issues/k").path))

            let reopened = try bed.library()
            #expect(await reopened.pendingDownloads == ["k"])
            #expect(staged().count >= before.count, "open kept the staging")
            let kept = staged().count
            try await reopened.download("k")
            let requests = bed.requests("slow/k/k.zip", atLeast: 2)
            #expect(requests.first?.range == nil)
            let resumedAt = index.entries[kept - 1].recordRange.upperBound
            #expect(requests.last?.range == "bytes=\(resumedAt)-", "from the end of the last checked entry")
            #expect(requests.last?.status == 206)
            #expect(requests.last?.bytesSent == Int(index.bundleSize - resumedAt))
            #expect(try await LibraryInvariants.violations(of: reopened, in: bed, allowsDownloading: false) == [])
            await reopened.close()
        }
    }
}
