import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// An update by ranges cut by a crash (issue 14): a swap left by an earlier version, and by
/// `kill -9` of a `newsstand library update` at random moments. Reopened, the issue is always the whole
/// old version or the whole new one, available, and an update then finishes.
@Suite("Update crashes", .timeLimit(.minutes(1)), .tags(.needsServer))
struct UpdateCrashTests {
    static let pages = (1...12).map { (page: $0, seed: $0) }
    static let changed = pages.map { $0.page % 3 == 0 ? (page: $0.page, seed: $0.seed + 100) : $0 }

    /// Publishes, downloads, keeps the old bundle aside, publishes the update and refreshes;
    /// returns the old bundle's copy. The library is closed.
    static func prepare(_ bed: Testbed, imageBytes: Int = 64 << 10) async throws -> URL {
        try bed.publishIndexed([Testbed.paged("m", pages)])
        let library = try bed.library()
        try await library.refresh(from: bed.catalogURL)
        try await library.download("m")
        let old = bed.libraryFolder.deletingLastPathComponent().appendingPathComponent("old-\(UUID().uuidString).zip")
        try FileManager.default.copyItem(at: bed.nginx.root.appendingPathComponent("m/m.zip"), to: old)
        try bed.publishIndexed([Testbed.paged("m", changed)])
        #expect(try await library.refresh().contentUpdates == ["m"])
        await library.close()
        return old
    }

    /// Which bundle the installed content is, exactly ("old", "new"), or what is wrong with it.
    static func installedVersion(_ bed: Testbed, old: URL) throws -> String {
        let result = try Shell.python(
            """
            import os, sys, zipfile
            folder, bundles = sys.argv[1], {"old": sys.argv[2], "new": sys.argv[3]}
            files = set()
            for root, dirs, names in os.walk(folder):
                for n in names:
                    rel = os.path.relpath(os.path.join(root, n), folder)
                    if rel != ".newsstand-index.json": files.add(rel)
            found = []
            for label, path in bundles.items():
                with zipfile.ZipFile(path) as z:
                    infos = [i for i in z.infolist() if not i.is_dir()]
                    if files == {i.filename for i in infos} and all(open(os.path.join(folder, i.filename), "rb").read() == z.read(i) for i in infos):
                        found.append(label)
            print(found[0] if found else "mixed or damaged: " + ", ".join(sorted(files)))
            """,
            [
                bed.libraryFolder.appendingPathComponent("Issues/m").path, old.path,
                bed.nginx.root.appendingPathComponent("m/m.zip").path,
            ])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + result.stderr
    }

    static func leftovers(_ bed: Testbed) throws -> [String] {
        let issues = try FileManager.default.contentsOfDirectory(atPath: bed.libraryFolder.appendingPathComponent("Issues").path)
        let downloads = try FileManager.default.contentsOfDirectory(
            atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
        return issues.filter { $0 != "m" } + downloads.filter { $0.hasSuffix(".ranges") }
    }

    /// A swap cut between its two renames by an earlier version of the library (which kept the
    /// new version under a temporary name): the old version is renamed back on open. The swap's
    /// own windows are `SwapCrashTests`'.
    @Test func aCrashBetweenTheRenamesGivesBackTheOldVersion() async throws {
        try await Testbed.with { bed in
            let old = try await Self.prepare(bed)
            let issues = bed.libraryFolder.appendingPathComponent("Issues")
            try FileManager.default.moveItem(at: issues.appendingPathComponent("m"), to: issues.appendingPathComponent(".swap-m"))
            try FileManager.default.createDirectory(
                at: issues.appendingPathComponent(".tmp-m-half"), withIntermediateDirectories: false)
            try Data("half".utf8).write(to: issues.appendingPathComponent(".tmp-m-half/page-3.png"))
            let library = try bed.library()
            #expect(try Self.installedVersion(bed, old: old) == "old")
            #expect(try Self.leftovers(bed) == [])
            #expect(await library.issue(named: "m")?.status == .available)
            #expect(await library.issue(named: "m")?.hasUpdate == true)
            guard case .ranges = try await library.update("m") else {
                Issue.record("the update after the repair did not go by ranges")
                return
            }
            #expect(try Self.installedVersion(bed, old: old) == "new")
        }
    }

    /// `kill -9` of `newsstand library update` at random moments, then reopen.
    @Test func killedUpdatesLeaveTheOldOrTheNewVersionNeverAMix() async throws {
        try await Testbed.with { bed in
            let old = try await Self.prepare(bed)
            var versions: [String] = []
            for round in 1...5 {
                let child = try BackgroundProcess(Shell.newsstand, ["library", bed.libraryFolder.path, "update", "m"])
                try await CrashSurvivalTests.kill(child, within: 0.8)
                let library = try bed.library()
                let version = try Self.installedVersion(bed, old: old)
                #expect(version == "old" || version == "new", "round \(round): \(version)")
                #expect(await library.issue(named: "m")?.status == .available, "round \(round)")
                #expect(await library.issue(named: "m")?.hasUpdate == (version == "old"), "round \(round)")
                #expect(try Self.leftovers(bed) == [], "round \(round)")
                versions.append(version)
                await library.close()
                if version == "new" { break }
            }
            let library = try bed.library()
            let result = try await library.update("m")
            #expect(versions.last == "new" ? result == .upToDate : result != .upToDate, "\(versions) \(result)")
            #expect(try Self.installedVersion(bed, old: old) == "new")
            #expect(try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false) == [])
        }
    }
}
