import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandFormat
import NewsstandTestSupport
import Synchronization
import Testing

/// Building bundles and catalogs in process: layout, content, incremental rebuilds, failures.
/// The bundles and feeds read by other tools: `BuildToolTests`.
@Suite struct BuildTests {
    func build(_ fixture: MagazineFixture, into output: URL, force: Bool = false) throws -> BuildReport {
        let (magazine, plans) = try fixture.plans()
        return try MagazineBuilder(
            magazine: magazine, options: BuildOptions(output: output, jobs: 2, force: force, versioned: false)
        ).build(plans)
    }

    @Test func catalogListsIssuesNewestFirstWithChecksums() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let (entries, problems) = try Catalog.decode(Data(contentsOf: output.appendingPathComponent("issues.plist")))
        #expect(problems.isEmpty)
        #expect(entries.map(\.name) == ["f-2", "f-1"])
        let newest = try #require(entries.first)
        #expect(newest.content == "https://example.com/mag/f-2/f-2.zip")
        #expect(newest.cover == "https://example.com/mag/f-2/cover.png")
        #expect(newest.contentURL(retina: true) == "https://example.com/mag/f-2/f-2@2x.zip")
        #expect(newest.summary == "The f-2 issue.")
        let bundle = output.appendingPathComponent("f-2/f-2@2x.zip")
        #expect(newest.retinaContentSHA256 == (try SHA256.hex(ofFileAt: bundle)))
        #expect(newest.retinaContentSize == (try FileManager.default.attributesOfItem(atPath: bundle.path)[.size] as? Int))
    }

    @Test func unchangedIssuesAreNotRebuilt() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        let zip = output.appendingPathComponent("f-1/f-1.zip")
        let before = try FileManager.default.attributesOfItem(atPath: zip.path)[.modificationDate] as? Date
        // Touching a file without changing it does not count as a change.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: fixture.url("issues/f-1/assets/1-0.png").path)
        var report = try build(fixture, into: output)
        #expect(report.built == [])
        #expect(report.upToDate == ["f-1", "f-2"])
        #expect(try FileManager.default.attributesOfItem(atPath: zip.path)[.modificationDate] as? Date == before)

        try fixture.image("f-2", "2-0.png", width: 12, height: 20)
        report = try build(fixture, into: output)
        #expect(report.built == ["f-2"])
        #expect(report.upToDate == ["f-1"])

        report = try build(fixture, into: output, force: true)
        #expect(report.built == ["f-1", "f-2"])
    }

    @Test func issuesRemovedFromTheMagazineLeaveTheOutputAndCatalog() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let output = try Shell.temporaryFolder()
        _ = try build(fixture, into: output)
        try FileManager.default.removeItem(at: fixture.url("issues/f-2"))
        let report = try build(fixture, into: output)
        #expect(report.removed == ["f-2"])
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("f-2").path))
        #expect(
            try Catalog.decode(Data(contentsOf: output.appendingPathComponent("issues.plist"))).entries.map(\.name) == ["f-1"])
    }

    @Test func assetThatVanishesBeforePackingNamesTheIssueAndFileAndLeavesNoArchive() throws {
        let fixture = try MagazineFixture()
        let (magazine, plans) = try fixture.plans()
        try fixture.remove("issues/f-1/assets/2-1@2x.png")
        let output = try Shell.temporaryFolder()
        #expect {
            _ = try MagazineBuilder(magazine: magazine, options: BuildOptions(output: output, jobs: 2, versioned: false)).build(
                plans)
        } throws: { error in
            guard let error = error as? BuildError else { return false }
            return error.issue == "f-1" && error.path.hasSuffix("assets/2-1@2x.png")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("f-1").path)
        #expect(!left.contains("f-1@2x.zip"))
        #expect(!left.contains { $0.hasSuffix(".tmp") })
        #expect(BuildManifest.read(in: output.appendingPathComponent("f-1")) == nil)
    }

    @Test func outputFolderThatIsAFileIsRefused() throws {
        let fixture = try MagazineFixture()
        let file = try Shell.temporaryFolder().appendingPathComponent("out")
        try Data("x".utf8).write(to: file)
        #expect(throws: BuildError.outputIsAFile(path: file.path)) {
            _ = try build(fixture, into: file)
        }
    }

    /// A build's jobs run on the calling thread and on threads of their own, never on
    /// Dispatch's global workers (as many as the cores): held there, the build's long jobs
    /// starved everything else in the process that needs them, URLSession's callbacks and
    /// timers among them (a reader test's catalog "stalled" while builds ran in process).
    @Test func buildJobsStayOffDispatchsWorkers() throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2", "f-3"])
        let (magazine, plans) = try fixture.plans()
        let caller = pthread_self()
        let threads = Mutex<[(own: Bool, caller: Bool)]>([])
        let helperReported = DispatchSemaphore(value: 0)
        let report = try MagazineBuilder(
            magazine: magazine, options: BuildOptions(output: try Shell.temporaryFolder(), jobs: 3, versioned: false)
        ).build(
            plans,
            progress: { _, _ in
                let own = BlockingWork.isCurrentThread
                let onCaller = pthread_equal(pthread_self(), caller) != 0
                let helperSeen = threads.withLock { seen -> Bool in
                    seen.append((own, onCaller))
                    return seen.contains { $0.own }
                }
                if own {
                    helperReported.signal()
                } else if onCaller, !helperSeen {
                    // The caller waits here until a helper has finished a job: on a loaded machine
                    // the caller could otherwise take every job before a helper thread starts.
                    _ = helperReported.wait(timeout: .now() + 60)
                }
            })
        #expect(report.built == ["f-1", "f-2", "f-3"])
        let seen = threads.withLock { $0 }
        #expect(seen.count == 6)
        #expect(seen.allSatisfy { $0.own || $0.caller }, "\(seen)")
        #expect(seen.contains { $0.own }, "helpers ran jobs too")
    }

}
