import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandAria2
@testable import NewsstandReader

/// Background downloads through the lifecycle: handed to an engine, persisted, and adopted by a
/// library that remembers nothing else (a relaunch), against a real aria2 daemon and against an
/// engine scripted to misbehave as an OS transfer service may.
@Suite("Background transfers", .timeLimit(.minutes(3)), .tags(.needsServer))
struct BackgroundTransferTests {
    /// Counts every install the library reports (analytics), across library instances.
    final class Installs: AnalyticsSink {
        let counts = Locked<[String: Int]>([:])
        func record(_ event: AnalyticsEvent) {
            if case .issueDownloaded(let name, _) = event { counts.withLock { $0[name, default: 0] += 1 } }
        }
    }

    static func aria2(_ bed: Testbed) -> Aria2Configuration {
        var configuration = Aria2Configuration()
        configuration.stopWithProcess = getpid()
        configuration.pollInterval = 0.1
        configuration.retryWait = 0
        configuration.startTimeout = 30
        return configuration
    }

    static func killDaemons(_ bed: Testbed) {
        let settings = bed.libraryFolder.appendingPathComponent("Engines/aria2/\(Aria2Settings.fileName)").path
        for pid in Aria2Platform.processes(withArgument: "--conf-path=" + settings) { kill(pid, SIGKILL) }
    }

    /// Four downloads handed to aria2, the library closed while they run; a new library (a
    /// relaunch) adopts them: each installed once, fetched once.
    @Test func downloadsHandedToAria2AreAdoptedByTheNextLibraryWithoutFetchingAgain() async throws {
        try await Testbed.with { bed in
            defer { Self.killDaemons(bed) }
            let specs = (1...4).map {
                Testbed.IssueSpec(
                    "b-\($0)", day: $0, normal: Testbed.IssueSpec.pages(scale: "", seed: $0), location: $0 % 2 == 0 ? "slow/" : ""
                )
            }
            try bed.publish(specs)
            let installs = Installs()
            let first = try bed.library { $0.analytics = installs }
            try await first.refresh(from: bed.catalogURL)
            await first.useBackgroundEngine(.custom(Aria2Engine(in: first, configuration: Self.aria2(bed))))
            for spec in specs { try await first.startBackgroundDownload(spec.name) }
            #expect(await first.issue(named: "b-2")?.status != IssueStatus.none, "shown downloading")
            // The app is gone; the daemon is not.
            await first.close()

            for spec in specs {
                let path = "/\(spec.location)\(spec.name)/\(spec.name).zip"
                try #require(
                    BackgroundProcess.poll(timeout: 90) { bed.nginx.requests().contains { $0.uri == path && $0.status == 200 } },
                    "aria2 fetched \(path)")
            }
            let second = try bed.library { $0.analytics = installs }
            var result = await second.useBackgroundEngine(.custom(Aria2Engine(in: second, configuration: Self.aria2(bed))))
            // Until every transfer has ended, within a minute (a loaded machine's installs, each
            // with its fsyncs, can take seconds apiece).
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, await !second.backgroundTransfers.isEmpty {
                try await Task.sleep(nanoseconds: 100_000_000)
                result = await second.reconcileTransfers()
            }
            let left = await second.backgroundTransfers
            #expect(left.isEmpty, "\(left); \(result)")
            for spec in specs {
                let why = await second.lastTransferError(of: spec.name) ?? "no error recorded"
                #expect(await second.issue(named: spec.name)?.status == .available, "\(spec.name): \(why); \(result)")
                let fetched = bed.nginx.requests().filter { $0.uri == "/\(spec.location)\(spec.name)/\(spec.name).zip" }
                // Once whole (a 206 continuing a cut connection is not a second fetch).
                #expect(fetched.filter { $0.status == 200 }.count == 1, "\(spec.name) fetched once: \(fetched); \(result)")
            }
            #expect(
                installs.counts.current == Dictionary(uniqueKeysWithValues: specs.map { ($0.name, 1) }), "each installed once")
            #expect(try await LibraryInvariants.violations(of: second, in: bed, allowsDownloading: false) == [])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
                    == [])
            #expect(await second.stopBackgroundEngineIfIdle())
            await second.close()
        }
    }

    /// Files that arrive while the library closes (their events reach the actor during
    /// `close()`) start no install there: after `close()` nothing runs and nothing is half done
    /// (no staged or temporary folder: an install begun then staged a version the closed store
    /// would not commit, and left it), and the next open installs each from `Downloads/`.
    @Test func filesArrivingWhileTheLibraryClosesAreInstalledByTheNextOpen() async throws {
        try await Testbed.with { bed in
            let names = (1...8).map { "z-\($0)" }
            try bed.publish(
                names.enumerated().map {
                    Testbed.IssueSpec($1, day: $0 + 1, normal: Testbed.IssueSpec.pages(scale: "", seed: $0 + 1))
                })
            let engine = ScriptedEngine(scratch: try Shell.temporaryFolder("closing"))
            let first = try bed.library()
            try await first.refresh(from: bed.catalogURL)
            await first.useBackgroundEngine(.custom(engine))
            for name in names { try await first.startBackgroundDownload(name) }
            let jobs = engine.jobs
            try #require(jobs.count == names.count)
            // The events are on their way to the actor (some taken, the rest queued) as close() begins.
            for job in jobs { engine.finish(job.id, from: bed.nginx.root) }
            await first.close()
            let issues = bed.libraryFolder.appendingPathComponent("Issues").path
            let hidden = try FileManager.default.contentsOfDirectory(atPath: issues).filter { $0.hasPrefix(".") }
            #expect(hidden == [], "half done after close()")

            let second = try bed.library()
            await second.useBackgroundEngine(.custom(engine))
            await second.waitForInstalls()
            for name in names { #expect(await second.issue(named: name)?.status == .available, "\(name)") }
            #expect(try await LibraryInvariants.violations(of: second, in: bed, allowsDownloading: false) == [])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
                    == [])
            await second.close()
        }
    }

    @Test func adoptInstallsAFileThatMatchesTheCatalogAndRefusesOneThatDoesNot() async throws {
        try await Testbed.with { bed in
            try bed.publish([.init("c-1", day: 1), .init("c-2", day: 2, normal: Testbed.IssueSpec.pages(scale: "", seed: 2))])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let scratch = try Shell.temporaryFolder("adopt")
            let good = scratch.appendingPathComponent("good.zip")
            try FileManager.default.copyItem(at: bed.nginx.root.appendingPathComponent("c-1/c-1.zip"), to: good)
            #expect(try await library.adopt(good, for: "c-1").status == .available)
            #expect(!FileManager.default.fileExists(atPath: good.path), "moved into the library")

            let bad = scratch.appendingPathComponent("bad.zip")
            try FileManager.default.copyItem(at: bed.nginx.root.appendingPathComponent("c-1/c-1.zip"), to: bad)
            await #expect(throws: LibraryError.self) { try await library.adopt(bad, for: "c-2") }
            #expect(await library.issue(named: "c-2")?.status == IssueStatus.none)
            #expect(await library.lastTransferError(of: "c-2")?.contains("c-2") == true)
            #expect(bed.requests("c-1/c-1.zip", atLeast: 0).isEmpty, "nothing was downloaded")
            #expect(try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false) == [])
            await #expect(throws: LibraryError.unknownIssue(name: "c-9")) { try await library.adopt(good, for: "c-9") }
        }
    }

    /// Random runs of an engine that repeats, reorders, forgets and fails, with the app killed
    /// (the library dropped without a word) at random moments: every issue asked ends installed
    /// once and equal to its bundle, or failed when its body was an error page; nothing is left.
    @Test(arguments: 0..<6) func reconcileHoldsOverRandomOrdersOfEvents(seed: Int) async throws {
        try await Testbed.with { bed in
            let names = (1...5).map { "r-\($0)" }
            try bed.publish(
                names.enumerated().map {
                    Testbed.IssueSpec($1, day: $0 + 1, normal: Testbed.IssueSpec.pages(scale: "", seed: $0 + 1))
                })
            var random = SeededRandom(seed: UInt64(seed) &+ 0x9E37)
            let scratch = try Shell.temporaryFolder("scripted")
            let engine = ScriptedEngine(scratch: scratch)
            let installs = Installs()
            // The libraries' log, for a failure's message.
            let lines = Locked<[String]>([])
            let log = LibraryLog(minimumLevel: .debug) { level, text in lines.withLock { $0.append("\(level): \(text)") } }
            var library = try bed.library {
                $0.analytics = installs
                $0.log = log
            }
            try await library.refresh(from: bed.catalogURL)
            await library.useBackgroundEngine(.custom(engine))
            var refused: Set<String> = []
            for _ in 0..<40 {
                switch random.next(below: 9) {
                case 0, 1:
                    let name = names[random.next(below: names.count)]
                    try? await library.startBackgroundDownload(name, intent: random.next(below: 2) == 0 ? .user : .automatic)
                case 2, 3:
                    if let job = engine.jobs.randomElement(using: &random) {
                        engine.finish(job.id, from: bed.nginx.root, keep: random.next(below: 3) == 0)
                    }
                case 4:
                    // A 404's error page delivered as a finished file.
                    if let job = engine.jobs.randomElement(using: &random), !refused.contains(job.id.name) {
                        engine.finish(job.id, from: bed.nginx.root, status: 404, body: Data("<h1>404</h1>".utf8))
                        refused.insert(job.id.name)
                    }
                case 5:
                    if let job = engine.jobs.randomElement(using: &random) { engine.fail(job.id) }
                case 6:
                    let name = names[random.next(below: names.count)]
                    let url = bed.nginx.baseURL.appendingPathComponent("\(name)/\(name).zip")
                    engine.finishStale(
                        TransferID(name: name, generation: 1000 + random.next(below: 5)), from: bed.nginx.root, url: url)
                case 7:
                    // The app goes (force-quit: the engine forgets its jobs too); the next one
                    // knows only what the state and the files say. (A kill at any moment is the
                    // command-line and aria2 tests': a library in this process cannot be killed.)
                    await library.close()
                    if random.next(below: 2) == 0 { engine.forgetAll() }
                    lines.withLock { $0.append("-- the app goes") }
                    library = try bed.library {
                        $0.analytics = installs
                        $0.log = log
                    }
                    await library.useBackgroundEngine(.custom(engine))
                default:
                    engine.deliverAll()
                    await library.waitForInstalls()
                }
            }
            // Quiet: every job the engine still holds finishes, and the library settles.
            for _ in 0..<20 {
                for job in engine.jobs { engine.finish(job.id, from: bed.nginx.root) }
                await library.reconcileTransfers()
                await library.waitForInstalls()
                if engine.jobs.isEmpty, await library.backgroundTransfers.isEmpty { break }
            }
            #expect(await library.backgroundTransfers.isEmpty)
            for (name, count) in installs.counts.current { #expect(count == 1, "\(name) installed \(count) times") }
            for issue in await library.issues where issue.status == .available {
                #expect(installs.counts.current[issue.name] == 1, "\(issue.name) available without an install")
            }
            let violations = try await LibraryInvariants.violations(of: library, in: bed, allowsDownloading: false)
            #expect(violations == [], "\(lines.current.joined(separator: "\n"))")
            let left = try FileManager.default.contentsOfDirectory(
                atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
            #expect(left == [], "nothing is left in Downloads/")
            await library.close()
        }
    }
}
