import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// Background transfers on a scripted engine over the scripted transport (no server: the engine
/// hands over the bytes the bed serves): files arriving while the library closes, adopting a
/// file, and random orders of an engine's events with the app going at random moments.
@Suite("Background transfers on a scripted engine", .timeLimit(.minutes(3)))
struct ScriptedBackgroundTransferTests {
    /// `names` published, a library refreshed, each issue handed to a scripted engine.
    static func handedOver(_ names: [String], in bed: ScriptedBed) async throws -> (IssueLibrary, ScriptedEngine) {
        try bed.publish(
            names.enumerated().map {
                ScriptedBed.IssueSpec($1, day: $0 + 1, normal: ScriptedBed.IssueSpec.pages(scale: "", seed: $0 + 1))
            })
        let engine = ScriptedEngine(scratch: try Shell.temporaryFolder("scripted"))
        let library = try bed.library()
        try await library.refresh(from: bed.catalogURL)
        await library.useBackgroundEngine(.custom(engine))
        for name in names { try await library.startBackgroundDownload(name) }
        return (library, engine)
    }

    /// Files that arrive while the library closes (their events reach the actor during
    /// `close()`) start no install there: after `close()` nothing runs and nothing is half done
    /// (no staged or temporary folder: an install begun then staged a version the closed store
    /// would not commit, and left it), and the next open installs each from `Downloads/`.
    @Test func filesArrivingWhileTheLibraryClosesAreInstalledByTheNextOpen() async throws {
        try await ScriptedBed.with { bed in
            let names = (1...8).map { "z-\($0)" }
            let (first, engine) = try await Self.handedOver(names, in: bed)
            let jobs = engine.jobs
            try #require(jobs.count == names.count)
            // The events are on their way to the actor (some taken, the rest queued) as close() begins.
            for job in jobs { engine.finish(job.id, in: bed) }
            await first.close()
            let issues = bed.libraryFolder.appendingPathComponent("Issues").path
            let hidden = try FileManager.default.contentsOfDirectory(atPath: issues).filter { $0.hasPrefix(".") }
            #expect(hidden == [], "half done after close()")

            let second = try bed.library()
            await second.useBackgroundEngine(.custom(engine))
            await second.waitForInstalls()
            for name in names { #expect(await second.issue(named: name)?.status == .available, "\(name)") }
            #expect(try await bed.violations(of: second, allowsDownloading: false) == [])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
                    == [])
            await second.close()
        }
    }

    /// A reconcile waits for the events of the transfers its engine does not list (they may be on
    /// their way, as a relaunch's are); the engine's word that it delivered every event ends the
    /// wait, however long the grace: a transfer that has not moved by then is lost, and is started
    /// again. The grace here is an hour: without that word the test would run out of time.
    @Test func theEnginesWordThatEveryEventIsDeliveredEndsTheWaitForLateEvents() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([ScriptedBed.IssueSpec("w-1", day: 1, normal: ScriptedBed.IssueSpec.pages(scale: "", seed: 1))])
            let engine = ScriptedEngine(scratch: try Shell.temporaryFolder("delivered"))
            let library = try bed.library { $0.eventGrace = 3600 }
            try await library.refresh(from: bed.catalogURL)
            await library.useBackgroundEngine(.custom(engine))
            try await library.startBackgroundDownload("w-1")
            engine.forgetAll()
            let done = Locked(false)
            let reconcile = Task {
                let result = await library.reconcileTransfers()
                done.withLock { $0 = true }
                return result
            }
            // Only a word said after the wait began ends it: said until the reconcile returns.
            while !done.current {
                engine.deliverAll()
                try await Task.sleep(nanoseconds: 2_000_000)
            }
            let result = await reconcile.value
            #expect(result.restarted == ["w-1"], "\(result)")
            #expect(engine.jobs.map(\.id) == [TransferID(name: "w-1", generation: 2)], "\(engine.jobs)")
            await library.close()
        }
    }

    /// A transfer the engine listed when a reconcile began, and that finished while the
    /// reconcile waited for another's events (missing from the report after the wait, its event
    /// not yet delivered), is followed, not started again: its event installs it, and its bundle
    /// is fetched once. The lost one is started again. (A relaunch fetched a bundle twice so.)
    @Test func aTransferThatFinishesWhileAReconcileWaitsIsNotStartedAgain() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish(
                (1...2).map {
                    ScriptedBed.IssueSpec("f-\($0)", day: $0, normal: ScriptedBed.IssueSpec.pages(scale: "", seed: $0))
                })
            let engine = ScriptedEngine(scratch: try Shell.temporaryFolder("finished-meanwhile"))
            let library = try bed.library { $0.eventGrace = 3600 }
            try await library.refresh(from: bed.catalogURL)
            await library.useBackgroundEngine(.custom(engine))
            for name in ["f-1", "f-2"] { try await library.startBackgroundDownload(name) }
            let lost = TransferID(name: "f-1", generation: 1)
            let finished = TransferID(name: "f-2", generation: 1)
            let body = try bed.served(String(try #require(engine.jobs.first { $0.id == finished }).url.path.dropFirst()))
            engine.forget(lost)
            let asked = engine.reports.current
            let done = Locked(false)
            let reconcile = Task {
                let result = await library.reconcileTransfers()
                done.withLock { $0 = true }
                return result
            }
            // Once the first report is made (f-2 running, f-1 missing), f-2 finishes unheard.
            while engine.reports.current == asked { try await Task.sleep(nanoseconds: 1_000_000) }
            engine.forget(finished)
            while !done.current {
                engine.deliverAll()
                try await Task.sleep(nanoseconds: 2_000_000)
            }
            let result = await reconcile.value
            #expect(result.restarted == ["f-1"], "\(result)")
            #expect(engine.jobs.map(\.id) == [TransferID(name: "f-1", generation: 2)], "\(engine.jobs)")
            engine.finishStale(finished, body: body)
            await engine.deliverAllAndWait()
            await library.waitForInstalls()
            #expect(await library.issue(named: "f-2")?.status == .available)
            #expect(engine.startCount == 3, "f-1 twice, f-2 once")
            await library.close()
        }
    }

    /// A transfer the engine lost is started again (generation 2); the first generation's file
    /// then arrives after all, while the app closes: the transfer takes it as its own, and the
    /// state keeps it so (its row names the earlier generation's file). The next open reads that
    /// row back and installs the file. The row was refused on reading, which left the issue
    /// "downloading" with no transfer: nothing ever installed it (seen once in the background
    /// endurance run).
    @Test func aLateFileOfAnEarlierGenerationSavedWhileClosingIsInstalledByTheNextOpen() async throws {
        try await ScriptedBed.with { bed in
            let names = (1...6).map { "l-\($0)" }
            let (first, engine) = try await Self.handedOver(names, in: bed)
            // The engine loses every job (a reinstalled app's session): each starts again.
            engine.forgetAll()
            await first.reconcileTransfers()
            let restarted = engine.jobs
            try #require(restarted.count == names.count && restarted.allSatisfy { $0.id.generation == 2 })
            // The first generation's files arrive after all, as close() begins: some are
            // installed before it, some saved as received, the rest cut off.
            for name in names {
                engine.finishStale(TransferID(name: name, generation: 1), body: try bed.served("\(name)/\(name).zip"))
            }
            await first.close()

            let second = try bed.library()
            #expect(await second.stateProblems == [], "every row reads back")
            await second.useBackgroundEngine(.custom(engine))
            await second.reconcileTransfers()
            await second.waitForInstalls()
            // A late file whose event close() cut off is not in the state: the restarted job brings it.
            for job in engine.jobs { engine.finish(job.id, in: bed) }
            await second.reconcileTransfers()
            await second.waitForInstalls()
            for name in names { #expect(await second.issue(named: name)?.status == .available, "\(name)") }
            #expect(await second.backgroundTransfers.isEmpty)
            #expect(try await bed.violations(of: second, allowsDownloading: false) == [])
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
                    == [])
            await second.close()
        }
    }

    @Test func adoptInstallsAFileThatMatchesTheCatalogAndRefusesOneThatDoesNot() async throws {
        try await ScriptedBed.with { bed in
            try bed.publish([.init("c-1", day: 1), .init("c-2", day: 2, normal: ScriptedBed.IssueSpec.pages(scale: "", seed: 2))])
            let library = try bed.library()
            try await library.refresh(from: bed.catalogURL)
            let scratch = try Shell.temporaryFolder("adopt")
            let good = scratch.appendingPathComponent("good.zip")
            try bed.served("c-1/c-1.zip").write(to: good)
            #expect(try await library.adopt(good, for: "c-1").status == .available)
            #expect(!FileManager.default.fileExists(atPath: good.path), "moved into the library")

            let bad = scratch.appendingPathComponent("bad.zip")
            try bed.served("c-1/c-1.zip").write(to: bad)
            await #expect(throws: LibraryError.self) { try await library.adopt(bad, for: "c-2") }
            #expect(await library.issue(named: "c-2")?.status == IssueStatus.none)
            #expect(await library.lastTransferError(of: "c-2")?.contains("c-2") == true)
            #expect(bed.requests("c-1/c-1.zip", atLeast: 0).isEmpty, "nothing was downloaded")
            #expect(try await bed.violations(of: library, allowsDownloading: false) == [])
            await #expect(throws: LibraryError.unknownIssue(name: "c-9")) { try await library.adopt(good, for: "c-9") }
        }
    }

    /// Random runs of an engine that repeats, reorders, forgets and fails, with the app killed
    /// (the library dropped without a word) at random moments: every issue asked ends installed
    /// once and equal to its bundle, or failed when its body was an error page; nothing is left.
    @Test(arguments: 0..<6) func reconcileHoldsOverRandomOrdersOfEvents(seed: Int) async throws {
        try await ScriptedBed.with { bed in
            let names = (1...5).map { "r-\($0)" }
            try bed.publish(
                names.enumerated().map {
                    ScriptedBed.IssueSpec($1, day: $0 + 1, normal: ScriptedBed.IssueSpec.pages(scale: "", seed: $0 + 1))
                })
            var random = SeededRandom(seed: UInt64(seed) &+ 0x9E37)
            let scratch = try Shell.temporaryFolder("scripted")
            let engine = ScriptedEngine(scratch: scratch)
            let installs = BackgroundTransferTests.Installs()
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
                        engine.finish(job.id, in: bed, keep: random.next(below: 3) == 0)
                    }
                case 4:
                    // A 404's error page delivered as a finished file.
                    if let job = engine.jobs.randomElement(using: &random), !refused.contains(job.id.name) {
                        engine.finish(job.id, in: bed, status: 404, body: Data("<h1>404</h1>".utf8))
                        refused.insert(job.id.name)
                    }
                case 5:
                    if let job = engine.jobs.randomElement(using: &random) { engine.fail(job.id) }
                case 6:
                    let name = names[random.next(below: names.count)]
                    engine.finishStale(
                        TransferID(name: name, generation: 1000 + random.next(below: 5)),
                        body: try bed.served("\(name)/\(name).zip"))
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
                for job in engine.jobs { engine.finish(job.id, in: bed) }
                await library.reconcileTransfers()
                await library.waitForInstalls()
                if engine.jobs.isEmpty, await library.backgroundTransfers.isEmpty { break }
            }
            #expect(await library.backgroundTransfers.isEmpty)
            for (name, count) in installs.counts.current { #expect(count == 1, "\(name) installed \(count) times") }
            for issue in await library.issues where issue.status == .available {
                #expect(installs.counts.current[issue.name] == 1, "\(issue.name) available without an install")
            }
            let violations = try await bed.violations(of: library, allowsDownloading: false)
            #expect(violations == [], "\(lines.current.joined(separator: "\n"))")
            let left = try FileManager.default.contentsOfDirectory(
                atPath: bed.libraryFolder.appendingPathComponent("Downloads").path)
            #expect(left == [], "nothing is left in Downloads/")
            await library.close()
        }
    }
}
