import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// `kill -9` at random moments (issue 12): a child `newsstand library` process refreshing or
/// downloading is killed, the folder reopened, and the invariants checked each time.
@Suite("Crash survival", .timeLimit(.minutes(1)), .tags(.needsServer))
struct CrashSurvivalTests {
    /// Waits a random moment up to `seconds`, then kills the child with SIGKILL and reaps it.
    static func kill(_ child: BackgroundProcess, within seconds: Double) async throws {
        try await Task.sleep(nanoseconds: UInt64(Double.random(in: 0...seconds) * 1e9))
        child.killNow()
        _ = await BlockingWork.run { child.wait() }
    }

    @Test func aKilledRefreshLeavesAllOrNothing() async throws {
        try await Testbed.with { bed in
            // Enough entries that the refresh writes for a while; no bundles are needed.
            let count = 3_000
            let base = bed.nginx.baseURL.absoluteString
            let entries = (1...count).map { n in
                CatalogEntry(
                    name: "n-\(n)", title: "N \(n)", date: Date(timeIntervalSince1970: Double(n) * 3600), cover: base + "c.png",
                    content: base + "n-\(n).zip")
            }
            try bed.writeCatalog(entries)
            for round in 1...4 {
                let child = try BackgroundProcess(
                    Shell.newsstand,
                    ["library", bed.libraryFolder.path, "refresh", bed.catalogURL.absoluteString, "--covers", "0"])
                try await Self.kill(child, within: 0.6)
                let library = try bed.library()
                let shelf = await library.issues.count
                #expect(shelf == 0 || shelf == count, "round \(round): \(shelf) issues")
                #expect(try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false) == [])
                await library.close()
            }
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            #expect(await library.issues.count == count)
        }
    }

    @Test func killedDownloadsResumeAndEveryInvariantHolds() async throws {
        try await Testbed.with { bed in
            // Bundles of 300 KB behind nginx's 100 KB/s location: each takes seconds, so the
            // kills land before, during and after downloads, unpacks and saves.
            let specs = (1...6).map { n in
                Testbed.IssueSpec(
                    "d-\(n)", day: n, normal: Testbed.IssueSpec.pages(scale: "", imageBytes: 300_000, seed: n), location: "slow/")
            }
            try bed.publish(specs)
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            await library.close()
            for round in 1...5 {
                let child = try BackgroundProcess(Shell.newsstand, ["library", bed.libraryFolder.path, "download", "--all"])
                try await Self.kill(child, within: 4)
                let reopened = try bed.library()
                let problems = try await LibraryInvariants.violations(of: reopened, in: bed, allowsDownloading: true)
                #expect(problems == [], "round \(round)")
                await reopened.close()
            }
            let last = try bed.library()
            for name in await last.pendingDownloads { try await last.download(name) }
            for spec in specs { try await last.download(spec.name) }
            #expect(await last.issues.allSatisfy { $0.status == .available })
            #expect(try await LibraryInvariants.violations(of: last, in: bed, allowsDownloading: false) == [])
        }
    }
}
