import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// A replacement of an issue's content killed at each of its steps (issue 23 §6), for both
/// swaps: an update by ranges and an update that downloads the whole bundle. `strace` kills a
/// real `newsstand library update` with SIGKILL as it enters the syscall of the step (the
/// syscall does not run): no hook in the library, and nothing of it (no `defer`, no clean-up on
/// an error) runs after the kill, as in a crash. Reopened, the issue is exactly one complete
/// version, the one its saved record names, and an update then finishes.
@Suite("Swap crashes", .timeLimit(.minutes(2)), .tags(.needsServer))
struct SwapCrashTests {
    static let pages = (1...12).map { (page: $0, seed: $0) }

    /// Which swap the update makes.
    enum Swap: String, CaseIterable, CustomTestStringConvertible {
        /// Four of twelve pages changed: fetched by ranges.
        case ranges
        /// Seven of twelve changed (over half the bundle): the whole bundle, unpacked.
        case whole

        var changed: [(page: Int, seed: Int)] {
            let count = self == .ranges ? 4 : 7
            return SwapCrashTests.pages.map { $0.page <= count ? (page: $0.page, seed: $0.seed + 100) : $0 }
        }

        var testDescription: String { rawValue }
    }

    /// Where the kill lands (see `ContentSwap`'s windows).
    enum Kill: String, CaseIterable, CustomTestStringConvertible {
        /// At the issues folder's sync after the new version got its staged name: before the
        /// state names it.
        case staged
        /// At the first rename of `m`: the state names the new version, the old is in place.
        case saved
        /// At the second rename of `m`: the old version aside, the new one not yet in place.
        case betweenRenames
        /// At the second rename of `.swap-m` (taking it off to be deleted): both renames done.
        case swapped

        var testDescription: String { rawValue }

        /// strace's arguments for the kill, in a library at `folder`.
        func strace(_ folder: URL) -> [String] {
            let (call, path, when) =
                switch self {
                case .staged: ("fsync", folder.resolvingSymlinksInPath().appendingPathComponent("Issues").path, 1)
                case .saved: ("renameat,renameat2", "m", 1)
                case .betweenRenames: ("renameat,renameat2", "m", 2)
                case .swapped: ("renameat,renameat2", ".swap-m", 2)
                }
            return [
                "-f", "-qq", "-o", "/dev/null", "-e", "trace=\(call)", "-P", path, "-e",
                "inject=\(call):signal=SIGKILL:when=\(when)",
            ]
        }

        /// What `Issues/` holds when the kill lands, for a new bundle with this SHA-256.
        func issuesFolder(newSHA256 sha: String) -> Set<String> {
            switch self {
            case .staged, .saved: ["m", ".next-m.\(sha)"]
            case .betweenRenames: [".swap-m", ".next-m.\(sha)"]
            case .swapped: ["m", ".swap-m"]
            }
        }

        /// The version the next open keeps: the one the saved state names.
        var keeps: String { self == .staged ? "old" : "new" }
    }

    @Test(arguments: Swap.allCases, Kill.allCases)
    func aKilledSwapLeavesTheRecordedVersion(swap: Swap, kill: Kill) async throws {
        try await Testbed.with { bed in
            try bed.publishIndexed([Testbed.paged("m", Self.pages)])
            var library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            try await library.download("m")
            let old = bed.libraryFolder.deletingLastPathComponent().appendingPathComponent("old-\(UUID().uuidString).zip")
            try FileManager.default.copyItem(at: bed.nginx.root.appendingPathComponent("m/m.zip"), to: old)
            let entries = try bed.publishIndexed([Testbed.paged("m", swap.changed)])
            #expect(try await library.refresh().contentUpdates == ["m"])
            await library.close()

            let strace = try Shell.locate("strace")
            let arguments = kill.strace(bed.libraryFolder) + [Shell.newsstand, "library", bed.libraryFolder.path, "update", "m"]
            let run = try await offPool { try Shell.run(strace, arguments) }
            #expect(run.status == SIGKILL, "the kill did not land: \(run.status) \(run.stdout) \(run.stderr)")
            let sha = try #require(entries[0].contentSHA256)
            let issues = bed.libraryFolder.appendingPathComponent("Issues")
            #expect(Set(try FileManager.default.contentsOfDirectory(atPath: issues.path)) == kill.issuesFolder(newSHA256: sha))

            library = try bed.library()
            #expect(try UpdateCrashTests.installedVersion(bed, old: old) == kill.keeps)
            #expect(try UpdateCrashTests.leftovers(bed) == [])
            let issue = try #require(await library.issue(named: "m"))
            #expect(issue.status == .available)
            #expect(issue.hasUpdate == (kill.keeps == "old"))
            let result = try await library.update("m")
            #expect((result == .upToDate) == (kill.keeps == "new"), "\(result)")
            #expect(try UpdateCrashTests.installedVersion(bed, old: old) == "new")
            #expect(try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false) == [])
        }
    }
}
