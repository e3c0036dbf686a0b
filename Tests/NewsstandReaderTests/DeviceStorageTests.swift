import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// What the library does with the device's storage: data protection classes (enforced on iOS;
/// accepted and ignored here), what backups skip, free space as the platform counts it, and the
/// byte budget of downloaded issues. On a scripted transport (the fast tier); the free space a
/// tmpfs of its own shows is `FreeSpaceTests`'.
@Suite("Device storage", .timeLimit(.minutes(1)))
struct DeviceStorageTests {
    /// Linux has no protection classes: every class is accepted, the library works the same, and
    /// nothing is set on its folders or files (no extended attribute, no SQLite open flag).
    @Test(arguments: FileProtection.allCases)
    func everyProtectionClassIsAcceptedAndIgnoredHere(protection: FileProtection) async throws {
        #expect(!FileProtection.isEnforced)
        #expect(protection.sqliteOpenFlags == 0)
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1)])
            let library = try bed.library { $0.fileProtection = protection }
            try await library.refresh(from: bed.catalogURL)
            #expect(try await library.download("a").status == .available)
            try await library.setReadingPosition(ReadingPosition(article: 0, page: 0), of: "a")
            let paths = ["", "Issues", "Issues/a", "Downloads", "Covers", "library.sqlite", "library.lock"]
                .map { bed.libraryFolder.appendingPathComponent($0).path }
            // Each path's extended attributes, not following a link (Python's `os.listxattr`).
            let attributes = try paths.filter { try Self.attributeBytes($0) != 0 }
            #expect(attributes == [], "extended attributes (or an error) on \(attributes)")
        }
    }

    /// What the app fetches on its own is checked against the space the system gives without
    /// purging (`volumeAvailableCapacityForOpportunisticUsage` on Apple platforms); what the user
    /// asked for against what it would purge for (`…ForImportantUsage`).
    @Test func automaticDownloadsAskForOpportunisticSpaceAndTheUsersForImportantSpace() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("a", day: 1), .init("b", day: 2)])
            let asked = Locked<[CapacityUsage]>([])
            let library = try bed.library { configuration in
                configuration.availableCapacity = { _, usage in
                    asked.withLock { $0.append(usage) }
                    return usage == .important ? 1 << 40 : 1000
                }
            }
            try await library.refresh(from: bed.catalogURL)
            await #expect(throws: LibraryError.self) { try await library.download("a", policy: .automatic) }
            #expect(await library.issue(named: "a")?.status == IssueStatus.none)
            #expect(try await library.download("b").status == .available)
            #expect(asked.current == [.opportunistic, .important])
        }
    }

    /// The size of `path`'s list of extended attributes (`llistxattr(2)`, which Glibc's module
    /// does not import: looked up in the C library), -1 on an error.
    static func attributeBytes(_ path: String) throws -> Int {
        typealias ListAttributes = @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<CChar>?, Int) -> Int
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "llistxattr") else { throw TestFailure("no llistxattr") }
        return unsafeBitCast(symbol, to: ListAttributes.self)(path, nil, 0)
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
        try await ScriptedBed.with { bed in
            let specs = (1...4).map { day in
                ScriptedBed.IssueSpec(
                    "i-\(day)", day: day, normal: ScriptedBed.IssueSpec.pages(scale: "", imageBytes: 50_000, seed: day))
            }
            try bed.publish(specs)
            let probe = try bed.library()
            try await probe.refresh(from: bed.catalogURL)
            let one = ContentUsage.bytes(of: try await probe.download("i-1").contentURL)
            #expect(one > 50_000)
            await probe.close()

            // The policy deletes a removed issue's content on a thread of its own, not waited
            // for; the log says when each deletion ended, and the invariants wait for that.
            let deletions = AsyncStream<String>.makeStream()
            let library = try bed.library {
                $0.maxStorageBytes = 2 * one + one / 2
                $0.log = LibraryLog(minimumLevel: .info) { _, text in
                    if text.hasPrefix("removed the content of ") || text.contains(" was not removed yet") {
                        deletions.continuation.yield(text)
                    }
                }
            }
            try await library.download("i-2")
            try await library.setCurrentlyReadingIssue("i-1")
            // Three issues are over the budget: the oldest not being read goes (i-2).
            try await library.download("i-3")
            #expect(await library.issues.filter { $0.status == .available }.map(\.name) == ["i-3", "i-1"])
            try await library.setCurrentlyReadingIssue(nil)
            try await library.download("i-4")
            #expect(await library.issues.filter { $0.status == .available }.map(\.name) == ["i-4", "i-3"])
            #expect(try await library.applyStoragePolicy() == [])
            var deleted: [String] = []
            for await line in deletions.stream {
                deleted.append(line)
                if deleted.count == 2 { break }
            }
            #expect(deleted.sorted() == ["removed the content of i-1", "removed the content of i-2"])
            let problems = try await bed.violations(of: library, allowsDownloading: false)
            #expect(problems == [], "\(problems)")
        }
    }
}
