import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// What the library does with the device's storage: data protection classes (enforced on iOS;
/// accepted and ignored here), what backups skip, free space as the platform counts it, and the
/// byte budget of downloaded issues.
@Suite("Device storage", .timeLimit(.minutes(1)), .tags(.needsServer))
struct DeviceStorageTests {
    /// Linux has no protection classes: every class is accepted, the library works the same, and
    /// nothing is set on its folders or files (no extended attribute, no SQLite open flag).
    @Test(arguments: FileProtection.allCases)
    func everyProtectionClassIsAcceptedAndIgnoredHere(protection: FileProtection) async throws {
        #expect(!FileProtection.isEnforced)
        #expect(protection.sqliteOpenFlags == 0)
        try await Testbed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let library = try bed.library { $0.fileProtection = protection }
            try await library.refresh(from: bed.catalogURL)
            #expect(try await library.download("a").status == .available)
            try await library.setReadingPosition(ReadingPosition(article: 0, page: 0), of: "a")
            let paths = ["", "Issues", "Issues/a", "Downloads", "Covers", "library.sqlite", "library.lock"]
                .map { bed.libraryFolder.appendingPathComponent($0).path }
            let attributes = try Shell.python(
                "import os, sys\nfor p in sys.argv[1:]:\n    if os.listxattr(p, follow_symlinks=False): print(p, os.listxattr(p))",
                paths)
            #expect(attributes.status == 0 && attributes.stdout == "", "\(attributes.stdout) \(attributes.stderr)")
        }
    }

    /// What a backup skips is what can be downloaded again; the state, with the shelf and the
    /// reading positions, stays in the library folder, which is backed up.
    @Test func backupsSkipWhatCanBeDownloadedAgainAndKeepTheState() {
        let folder = URL(fileURLWithPath: "/container/Shelf", isDirectory: true)
        let layout = LibraryLayout(folder: folder)
        #expect(layout.excludedFromBackup.map(\.lastPathComponent) == ["Downloads", "Issues", "Covers", "Engines"])
        #expect(!layout.excludedFromBackup.contains(folder))
        for file in layout.stateFiles {
            #expect(!layout.excludedFromBackup.contains { file.path.hasPrefix($0.path + "/") }, "\(file.path) is backed up")
        }
        #expect(layout.stateFile.deletingLastPathComponent().path == folder.path)
        #expect(!BackupExclusion.isEnforced, "Linux makes no device backups")
    }

    /// Free space is what a process may still write (`statvfs`'s available blocks, as `df` says),
    /// on a small file system of its own where nobody else writes (as root, as on CI).
    @Test(.enabled(if: geteuid() == 0, "mounting a tmpfs needs root, which CI has"))
    func freeSpaceIsWhatDfCallsAvailable() throws {
        let mountPoint = try Shell.temporaryFolder("free-space")
        let mounted = try Shell.run("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint.path])
        try #require(mounted.status == 0, "mount -t tmpfs as root: \(mounted.stderr)")
        defer { _ = try? Shell.run("umount", [mountPoint.path]) }
        func df() throws -> Int64? {
            Int64(try Shell.run("df", ["-B1", "--output=avail", mountPoint.path]).stdout.split(separator: "\n").last ?? "")
        }
        #expect(LibraryConfiguration.freeBytes(at: mountPoint) == 4 << 20)
        #expect(LibraryConfiguration.freeBytes(at: mountPoint) == (try df()))
        try Data(count: 1 << 20).write(to: mountPoint.appendingPathComponent("used"))
        #expect(LibraryConfiguration.freeBytes(at: mountPoint) == 3 << 20)
        #expect(LibraryConfiguration.freeBytes(at: mountPoint) == (try df()))
        #expect(LibraryConfiguration.freeBytes(at: mountPoint.appendingPathComponent("missing")) == nil)
    }

    @Test func theBudgetRemovesTheOldestPastItsBytesButNeverWhatItMustKeep() {
        let issues = ["d", "c", "b", "a"].map { StorageBudget.Issue(name: $0, bytes: 100) }
        #expect(StorageBudget(maxIssues: nil, maxBytes: 250).removals(from: issues, keeping: []) == ["a", "b"])
        #expect(StorageBudget(maxIssues: nil, maxBytes: 250).removals(from: issues, keeping: ["a"]) == ["b", "c"])
        #expect(StorageBudget(maxIssues: 3, maxBytes: 1000).removals(from: issues, keeping: []) == ["a"])
        #expect(StorageBudget(maxIssues: 3, maxBytes: 150).removals(from: issues, keeping: []) == ["a", "b", "c"])
        #expect(StorageBudget(maxIssues: nil, maxBytes: 0).removals(from: issues, keeping: ["a", "d"]) == ["b", "c"])
        #expect(StorageBudget(maxIssues: nil, maxBytes: nil).removals(from: issues, keeping: []) == [])
    }

    /// `maxStorageBytes` in a library: downloading past it removes the oldest downloaded issue,
    /// but not the one being read, nor the one just downloaded.
    @Test func aLibraryKeepsItsDownloadsWithinTheByteBudget() async throws {
        try await Testbed.with { bed in
            let specs = (1...4).map { day in
                Testbed.IssueSpec("i-\(day)", day: day, normal: Testbed.IssueSpec.pages(scale: "", imageBytes: 50_000, seed: day))
            }
            try bed.publish(specs)
            let probe = try bed.library()
            try await probe.refresh(from: bed.catalogURL)
            let one = ContentUsage.bytes(of: try await probe.download("i-1").contentURL)
            #expect(one > 50_000)
            await probe.close()

            let library = try bed.library { $0.maxStorageBytes = 2 * one + one / 2 }
            try await library.download("i-2")
            try await library.setCurrentlyReadingIssue("i-1")
            // Three issues are over the budget: the oldest not being read goes (i-2).
            try await library.download("i-3")
            #expect(await library.issues.filter { $0.status == .available }.map(\.name) == ["i-3", "i-1"])
            try await library.setCurrentlyReadingIssue(nil)
            try await library.download("i-4")
            #expect(await library.issues.filter { $0.status == .available }.map(\.name) == ["i-4", "i-3"])
            #expect(try await library.applyStoragePolicy() == [])
            #expect(try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false) == [])
        }
    }
}
