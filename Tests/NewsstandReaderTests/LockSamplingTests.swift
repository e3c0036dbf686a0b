import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// A download holds no file lock while it runs (#33): sampled every 20 ms from `/proc/locks`
/// while a 50 MB issue arrives at 5 MB/s, the downloading process holds locks on no file of the
/// library folder but SQLite's (`library.sqlite`, its `-wal` and `-shm`, which WAL mode keeps
/// while a connection is open) and the writer lock of a commit, held in under a fifth of the
/// samples. An issue's claim is a row, not a `flock`.
@Suite("no lock held across work", .timeLimit(.minutes(3)), .tags(.needsServer, .needsTools))
struct LockSamplingTests {
    static let sqliteFiles: Set<String> = ["library.sqlite", "library.sqlite-wal", "library.sqlite-shm"]
    static let bigIssue = [
        ZipFixture.Entry.text("issue.plist", "<plist><dict/></plist>"), .text("pages.plist", "<plist><array/></plist>"),
        .random("1-0.png", count: 50_000_000, seed: 7),
    ]

    /// What the samples say, or a failure naming what was held.
    static func check(_ samples: [Set<String>], _ who: String) {
        #expect(samples.count >= 100, "\(who): sampled \(samples.count) times over the download")
        let other = samples.reduce(into: Set<String>()) { $0.formUnion($1) }.subtracting(sqliteFiles).subtracting(["library.lock"]
        )
        #expect(other.isEmpty, "\(who) held locks on \(other.sorted())")
        let commits = samples.filter { $0.contains("library.lock") }.count
        #expect(commits * 5 < samples.count, "\(who) held library.lock in \(commits) of \(samples.count) samples")
        #expect(samples.contains { !$0.isDisjoint(with: sqliteFiles) }, "\(who): the sampler saw SQLite's own locks")
    }

    @Test func aLibraryDownloadingInThisProcessHoldsOnlySQLitesLocks() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("big", day: 1, normal: Self.bigIssue, location: "paced/")])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let sampler = LockSampler(pid: getpid(), folder: bed.libraryFolder)
            let issue = try await library.download("big")
            let samples = sampler.stop()
            #expect(issue.status == .available)
            Self.check(samples, "the library")
            await library.close()
        }
    }

    @Test func theLibraryCommandDownloadingHoldsOnlySQLitesLocks() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("big", day: 1, normal: Self.bigIssue, location: "paced/")])
            let shelf = bed.libraryFolder.path
            let refresh = try Shell.run(Shell.newsstand, ["library", shelf, "refresh", bed.catalogURL.absoluteString])
            try #require(refresh.status == 0, "\(refresh.stderr)")
            let child = try BackgroundProcess(Shell.newsstand, ["library", shelf, "download", "big"])
            let sampler = LockSampler(pid: child.processIdentifier, folder: bed.libraryFolder)
            let status = try await offPool { child.wait() }
            let samples = sampler.stop()
            #expect(status == 0, "\(child.errors)")
            Self.check(samples, "newsstand library download")
        }
    }
}
