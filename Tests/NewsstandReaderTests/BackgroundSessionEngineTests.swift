import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The background session engine against a real nginx on loopback. On Linux FoundationNetworking
/// runs these sessions in process (it has no background sessions): what runs here is every line
/// of the engine but the configuration of `BackgroundSessionPlatform`'s Apple branch.
@Suite("Background session engine", .tags(.needsServer))
struct BackgroundSessionEngineTests {
    /// One test's server, folders and engine; `close()` cancels the sessions and removes it all.
    final class World: Sendable {
        let nginx: Nginx
        let folder: URL
        let downloads: URL
        let engine: BackgroundSessionEngine
        let sink: BackgroundEventRecorder

        init(knownIssues: Set<String>? = nil) throws {
            nginx = try Nginx()
            folder = try Shell.temporaryFolder("background")
            downloads = folder.appendingPathComponent("Downloads")
            try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
            engine = makeBackgroundEngine(parts: downloads)
            sink = BackgroundEventRecorder(downloads: downloads, knownIssues: knownIssues)
            engine.attach(sink)
        }

        func close() {
            engine.invalidate(cancellingTransfers: true)
            nginx.stop()
            try? FileManager.default.removeItem(at: folder)
        }

        /// Serves `count` reproducible bytes as `name` and returns them.
        @discardableResult
        func serve(_ name: String, count: Int = 300_000) throws -> Data {
            var generator = SystemRandomNumberGenerator()
            // 64 KiB of random bytes, repeated: a large file is made in no time.
            let block = Data((0..<min(count, 65_536)).map { _ in UInt8.random(in: 0...255, using: &generator) })
            var bytes = Data(capacity: count)
            while bytes.count < count { bytes.append(block.prefix(count - bytes.count)) }
            try bytes.write(to: nginx.root.appendingPathComponent(name))
            return bytes
        }

        /// A size `/slow/` (100 KB/s) takes 100 s to send: a transfer of it does not end before
        /// the test acts on it, however loaded the machine (300 KB, 3 s, once did).
        static let unendingSize = 10_000_000

        func job(_ name: String, _ generation: Int = 1, path: String, size: Int64? = nil, intent: TransferIntent = .user)
            -> TransferJob
        {
            TransferJob(
                id: TransferID(name: name, generation: generation), url: nginx.baseURL.appendingPathComponent(path),
                expectedSize: size,
                intent: intent)
        }

        static func with(knownIssues: Set<String>? = nil, _ body: (World) async throws -> Void) async throws {
            let world = try World(knownIssues: knownIssues)
            defer { world.close() }
            try await body(world)
        }
    }

    static func isFinished(_ id: TransferID) -> @Sendable ([BackgroundEventRecorder.Event]) -> Bool {
        { events in
            events.contains {
                if case .finished(id, _, _, _, _) = $0 { return true }
                return false
            }
        }
    }

    static func hasProgress(_ id: TransferID) -> @Sendable ([BackgroundEventRecorder.Event]) -> Bool {
        { events in
            events.contains {
                if case .progressed(id, _) = $0 { return true }
                return false
            }
        }
    }

    @Test func aFinishedFileIsHandedOverInsideTheCallbackAndNothingIsLeftAfter() async throws {
        try await World.with { world in
            let bytes = try world.serve("a.zip")
            let job = world.job("a", 3, path: "a.zip", size: Int64(bytes.count))
            try await world.engine.start(job)
            #expect(await world.sink.waitUntil(Self.isFinished(job.id)))
            guard case .finished(let id, let status, let file, let seen, let taken)? = world.sink.outcomes.first else {
                Issue.record("no finished event: \(world.sink.events)")
                return
            }
            #expect(id == job.id)
            #expect(status == 200)
            #expect(seen == bytes)
            #expect(taken.map { try? Data(contentsOf: $0) } == bytes)
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(world.sink.outcomes.count == 1)
            let progress = world.sink.events.compactMap { event -> DownloadProgress? in
                if case .progressed(_, let progress) = event { return progress }
                return nil
            }
            #expect(progress.last == DownloadProgress(bytesReceived: Int64(bytes.count), bytesExpected: Int64(bytes.count)))
            #expect(try await world.engine.report().isEmpty)
        }
    }

    @Test func aFileTheSinkRefusesIsRemovedAfterTheCallbackAsOnIOS() async throws {
        try await World.with { world in
            let job = world.job("a", path: "missing.zip")
            try await world.engine.start(job)
            #expect(await world.sink.waitUntil(Self.isFinished(job.id)))
            guard case .finished(_, let status, let file, let seen, let taken)? = world.sink.outcomes.first else {
                Issue.record("no finished event: \(world.sink.events)")
                return
            }
            // A 404's error page arrives as a finished file: the sink's status check refuses it.
            #expect(status == 404)
            #expect(seen != nil)
            #expect(taken == nil)
            #expect(await eventually { !FileManager.default.fileExists(atPath: file.path) })
            #expect(world.sink.outcomes.count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: world.downloads.path).isEmpty)
        }
    }

    #if canImport(FoundationNetworking)
        /// Why the engine removes what is left: FoundationNetworking keeps a download task's file in
        /// the temporary folder after the callback returns, where iOS deletes it.
        @Test func foundationNetworkingLeavesTheFileWhereIOSDeletesIt() async throws {
            final class Delegate: NSObject, URLSessionDownloadDelegate, Sendable {
                let location = Locked<URL?>(nil)
                func urlSession(_ session: URLSession, downloadTask: URLSessionDownloadTask, didFinishDownloadingTo location: URL)
                {
                    self.location.withLock { $0 = location }
                }
            }
            let nginx = try Nginx()
            defer { nginx.stop() }
            try Data(count: 1000).write(to: nginx.root.appendingPathComponent("a.zip"))
            let delegate = Delegate()
            let session = URLSession(configuration: .ephemeral, delegate: delegate, delegateQueue: nil)
            defer { session.invalidateAndCancel() }
            session.downloadTask(with: nginx.baseURL.appendingPathComponent("a.zip")).resume()
            #expect(await eventually { delegate.location.current != nil })
            let left = try #require(delegate.location.current)
            try await Task.sleep(nanoseconds: 200_000_000)
            #expect(FileManager.default.fileExists(atPath: left.path))
            try? FileManager.default.removeItem(at: left)
        }
    #endif

    @Test func keysSurviveAsTaskDescriptionsAndTwoIdentitiesShareNothing() async throws {
        try await World.with { world in
            try world.serve("a.zip")
            let other = makeBackgroundEngine(parts: world.downloads)
            let otherSink = BackgroundEventRecorder(downloads: world.downloads)
            other.attach(otherSink)
            defer { other.invalidate(cancellingTransfers: true) }
            let job = world.job("a", 7, path: "slow/a.zip")
            try await world.engine.start(job)
            #expect(await world.sink.waitUntil(Self.hasProgress(job.id)))
            let report = try await world.engine.report()
            #expect(Array(report.keys) == [job.id])
            guard case .running(let progress)? = report[job.id] else {
                Issue.record("not running: \(report)")
                return
            }
            #expect(progress.bytesReceived > 0)
            #expect(progress.bytesExpected == 300_000)
            let session = try #require(world.engine.session(.user))
            let descriptions = await withCheckedContinuation { continuation in
                session.getAllTasks { continuation.resume(returning: $0.map { $0.taskDescription }) }
            }
            #expect(descriptions == ["a#7"])
            #expect(try await other.report().isEmpty)
            #expect(otherSink.events.isEmpty)
            await world.engine.cancel(job.id, keepingData: false)
        }
    }

    @Test func aJobAlreadyRunningUnderItsKeyIsKeptNotDoubled() async throws {
        try await World.with { world in
            let bytes = try world.serve("a.zip")
            let job = world.job("a", 2, path: "slow/a.zip", size: Int64(bytes.count))
            async let first: Void = world.engine.start(job)
            async let second: Void = world.engine.start(job)
            _ = try await (first, second)
            try await world.engine.start(job)
            #expect(try await world.engine.report().count == 1)
            #expect(await world.sink.waitUntil(Self.isFinished(job.id)))
            #expect(world.sink.outcomes.count == 1)
            #expect(world.nginx.requests(for: "/slow/a.zip").filter { $0.method == "GET" }.count == 1)
        }
    }

    @Test func aSecondTaskOfAKeyIsCancelledAndTheFirstGoesOn() async throws {
        try await World.with { world in
            let bytes = try world.serve("a.zip")
            let job = world.job("a", 5, path: "slow/a.zip", size: Int64(bytes.count))
            try await world.engine.start(job)
            // What a crash between moving a task to the user's session and cancelling the old one
            // leaves: the same key twice.
            let automatic = try #require(world.engine.session(.automatic))
            let twin = automatic.downloadTask(with: job.url)
            twin.taskDescription = job.id.description
            twin.resume()
            let report = try await world.engine.report()
            #expect(Array(report.keys) == [job.id])
            #expect(await eventually { twin.state == .canceling || twin.state == .completed })
            #expect(world.engine.state.current.tasks[job.id]?.lane == .user)
            #expect(await world.sink.handedOverOnce(job.id, bytes: bytes))
        }
    }

    @Test func aTaskStillListedAfterItsOutcomeIsNotTakenInAgain() async throws {
        try await World.with { world in
            let session = try #require(world.engine.session(.user))
            let task = session.downloadTask(with: world.nginx.baseURL.appendingPathComponent("a.zip"))
            task.taskDescription = "a#1"
            let file = world.folder.appendingPathComponent("body.tmp")
            try Data(count: 10).write(to: file)
            // The session's callbacks, in their order, with a `report` between the hand-off and the
            // completion: FoundationNetworking lists a task as running until its completion returned.
            world.engine.finished(task, in: BackgroundSessionSlot(world.engine.settings.identity, .user), location: file)
            #expect(world.engine.adopt([(.user, task)]).isEmpty)
            world.engine.completed(task, in: BackgroundSessionSlot(world.engine.settings.identity, .user), error: nil)
            #expect(world.sink.outcomes.count == 1)
            #expect(world.engine.state.current.tasks.isEmpty)
            // A failure is settled the same way.
            let failing = session.downloadTask(with: world.nginx.baseURL.appendingPathComponent("b.zip"))
            failing.taskDescription = "b#1"
            world.engine.completed(
                failing, in: BackgroundSessionSlot(world.engine.settings.identity, .user), error: URLError(.networkConnectionLost)
            )
            #expect(world.engine.adopt([(.user, failing)]).isEmpty)
            world.engine.completed(
                failing, in: BackgroundSessionSlot(world.engine.settings.identity, .user), error: URLError(.networkConnectionLost)
            )
            #expect(world.sink.outcomes.count == 2)
        }
    }

    @Test func cancellingStopsTheTransferAndSaysSoOnce() async throws {
        try await World.with { world in
            try world.serve("a.zip", count: World.unendingSize)
            let kept = world.job("a", path: "slow/a.zip")
            let dropped = world.job("b", path: "slow/b.zip")
            try world.serve("b.zip", count: World.unendingSize)
            try await world.engine.start(kept)
            try await world.engine.start(dropped)
            #expect(await world.sink.waitUntil { Self.hasProgress(kept.id)($0) && Self.hasProgress(dropped.id)($0) })
            await world.engine.cancel(kept.id, keepingData: true)
            await world.engine.cancel(dropped.id, keepingData: false)
            // Cancelling what does not run changes nothing.
            await world.engine.cancel(TransferID(name: "c", generation: 1), keepingData: true)
            #expect(try await world.engine.report().isEmpty)
            // nginx logs a cut request once it notices the cut: then nothing more can come.
            #expect(world.nginx.requests(for: "/slow/a.zip").first.map { $0.bytesSent < World.unendingSize } == true)
            #expect(world.nginx.requests(for: "/slow/b.zip").first.map { $0.bytesSent < World.unendingSize } == true)
            // FoundationNetworking gives no resume data; on Apple platforms it would be here.
            let resumeData: Data? = nil
            #expect(
                world.sink.outcomes == [
                    .failed(kept.id, .cancelled, resumeData: resumeData), .failed(dropped.id, .cancelled, resumeData: nil),
                ])
        }
    }

    @Test func tasksThatAreNotTheLibrarysAreNeitherReportedNorTouched() async throws {
        try await World.with(knownIssues: ["a"]) { world in
            let bytes = try world.serve("a.zip")
            try world.serve("other.zip")
            let job = world.job("a", path: "a.zip")
            let session = try #require(world.engine.session(.user))
            let foreign = ([nil, "not ours", "../../etc#1", "a#0", "a#x"] as [String?]).map { description in
                let task = session.downloadTask(with: world.nginx.baseURL.appendingPathComponent("slow/other.zip"))
                task.taskDescription = description
                task.resume()
                return task
            }
            try await world.engine.start(job)
            // A job for an issue the library does not know: the sink refuses its file, and that is all.
            let ghost = world.job("ghost", path: "a.zip")
            try await world.engine.start(ghost)
            #expect(await world.sink.waitUntil { Self.isFinished(job.id)($0) && Self.isFinished(ghost.id)($0) })
            #expect(await eventually { foreign.allSatisfy { $0.countOfBytesReceived > 0 } })
            #expect(try await world.engine.report().isEmpty)
            for task in foreign { task.cancel() }
            #expect(world.nginx.requests(for: "/slow/other.zip", atLeast: foreign.count).count == foreign.count)
            let outcomes = world.sink.outcomes
            #expect(outcomes.count == 2, "\(outcomes)")
            for outcome in outcomes {
                guard case .finished(let id, 200, let file, bytes?, let taken) = outcome else {
                    Issue.record("unexpected \(outcome)")
                    continue
                }
                #expect(taken != nil ? id == job.id : id == ghost.id)
                #expect(await eventually { !FileManager.default.fileExists(atPath: file.path) })
            }
            #expect(
                world.sink.events.allSatisfy {
                    switch $0 {
                    case .progressed(let id, _), .finished(let id, _, _, _, _), .failed(let id, _, _):
                        id == job.id || id == ghost.id
                    case .deliveredAllEvents: false
                    }
                })
        }
    }

    @Test func resumeDataThatCannotBeUsedFallsBackToAWholeRequest() async throws {
        try await World.with { world in
            let bytes = try world.serve("a.zip")
            var job = world.job("a", path: "a.zip", size: Int64(bytes.count))
            // Apple platforms try it and the system refuses it (once made again without it);
            // FoundationNetworking can use no resume data, and the engine never gives it any.
            job.resumeData = Data("not resume data".utf8)
            try await world.engine.start(job)
            #expect(await world.sink.handedOverOnce(job.id, bytes: bytes))
            #expect(world.nginx.requests(for: "/a.zip").map(\.range) == [nil])
        }
    }

    @Test func aBodyLargerThanTheCatalogStatesIsCut() async throws {
        try await World.with { world in
            try world.serve("a.zip")
            let job = world.job("a", path: "a.zip", size: 1000)
            try await world.engine.start(job)
            #expect(await world.sink.waitUntil { !$0.isEmpty && world.sink.outcomes.count == 1 })
            #expect(world.sink.outcomes == [.failed(job.id, .tooLarge(limit: 1000), resumeData: nil)])
            #expect(try await world.engine.report().isEmpty)
        }
    }

    @Test func aFailedConnectionIsAFailureToRetry() async throws {
        try await World.with { world in
            let job = TransferJob(
                id: TransferID(name: "a", generation: 1), url: URL(string: "http://127.0.0.1:1/a.zip")!, expectedSize: nil,
                intent: .user)
            try await world.engine.start(job)
            #expect(await world.sink.waitUntil { _ in world.sink.outcomes.count == 1 })
            guard case .failed(_, let failure, nil)? = world.sink.outcomes.first else {
                Issue.record("no failure: \(world.sink.events)")
                return
            }
            #expect(failure.isTransient)
            await #expect(throws: TransferFailure.unsupportedURL(reason: "only http and https URLs can be fetched")) {
                try await world.engine.start(
                    TransferJob(
                        id: TransferID(name: "b", generation: 1), url: URL(fileURLWithPath: "/etc/passwd"), expectedSize: nil,
                        intent: .user))
            }
        }
    }

    @Test func anAutomaticJobTheUserAsksForMovesToTheUsersSession() async throws {
        try await World.with { world in
            let bytes = try world.serve("a.zip")
            // Half the file, then nothing until released: neither transfer can end before the
            // test looked (a slow one of 3 s once ended first on a loaded machine).
            let held = try LyingServer(root: world.nginx.root)
            defer { held.stop() }
            var automatic = world.job("a", path: "a.zip", size: Int64(bytes.count), intent: .automatic)
            automatic.url = held.baseURL.appendingPathComponent("hold/a.zip")
            try await world.engine.start(automatic)
            #expect(await world.sink.waitUntil(Self.hasProgress(automatic.id)))
            var asked = automatic
            asked.intent = .user
            try await world.engine.start(asked)
            #expect(try await world.engine.report().count == 1)
            #expect(world.engine.state.current.tasks[automatic.id]?.lane == .user)
            try held.release()
            #expect(await world.sink.handedOverOnce(automatic.id, bytes: bytes))
        }
    }

    @Test func startWaitsForTheFirstAttachWhichOpensTheSessions() async throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let folder = try Shell.temporaryFolder("background")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(count: 5000).write(to: nginx.root.appendingPathComponent("a.zip"))
        let engine = makeBackgroundEngine(parts: folder)
        defer { engine.invalidate(cancellingTransfers: true) }
        let job = TransferJob(
            id: TransferID(name: "a", generation: 1), url: nginx.baseURL.appendingPathComponent("a.zip"), expectedSize: 5000,
            intent: .user)
        let started = Task { try await engine.start(job) }
        let abandoned = Task { try await engine.report() }
        abandoned.cancel()
        await #expect(throws: TransferFailure.cancelled) { try await abandoned.value }
        #expect(engine.session(.user) == nil)
        #expect(nginx.requests().isEmpty)
        let sink = BackgroundEventRecorder(downloads: folder)
        engine.attach(sink)
        try await started.value
        #expect(await sink.waitUntil(Self.isFinished(job.id)))
    }

    @Test func theSystemsCompletionHandlerIsCalledOnceAfterTheSinkRecordedTheWake() async throws {
        try await World.with { world in
            let identity = world.engine.settings.identity
            let called = Locked<[String]>([])
            // Each handler notes how many wakes the sink had recorded when it ran.
            let handler = { (name: String) -> @Sendable () -> Void in
                { called.withLock { $0.append("\(name) after \(world.sink.events.count)") } }
            }
            #expect(!world.engine.handleEvents(forSession: "com.example.other", completion: handler("other")))
            #expect(world.engine.handleEvents(forSession: identity.identifier(of: .automatic), completion: handler("first")))
            let automatic = try #require(world.engine.session(.automatic))
            let delegate = try #require(automatic.delegate as? BackgroundSessionDelegate)
            // What iOS does once a relaunch's events are delivered (FoundationNetworking never does).
            delegate.urlSessionDidFinishEvents(forBackgroundURLSession: automatic)
            #expect(await eventually { called.current == ["first after 1"] })
            // The session delivered before the app handed over the next wake's handler: called at once.
            delegate.urlSessionDidFinishEvents(forBackgroundURLSession: automatic)
            #expect(world.engine.handleEvents(forSession: identity.identifier(of: .automatic), completion: handler("second")))
            #expect(await eventually { called.current == ["first after 1", "second after 2"] })
            // The user's session has wakes of its own: its handler waits for its own delivery.
            #expect(world.engine.handleEvents(forSession: identity.identifier(of: .user), completion: handler("user")))
            let user = try #require(world.engine.session(.user))
            try await Task.sleep(nanoseconds: 100_000_000)
            #expect(called.current.count == 2)
            (user.delegate as? BackgroundSessionDelegate)?.urlSessionDidFinishEvents(forBackgroundURLSession: user)
            #expect(await eventually { called.current == ["first after 1", "second after 2", "user after 3"] })
            #expect(world.sink.events == [.deliveredAllEvents, .deliveredAllEvents, .deliveredAllEvents])
        }
    }
}

/// An app's engine adopts what an app extension started on its own sessions (#34): it opens the
/// extension's sessions too, lists their tasks, takes their files and answers their wakes.
@Suite("Background sessions of app extensions", .tags(.needsServer))
struct BackgroundSessionAdoptionTests {
    @Test func aTransferAnExtensionStartedIsTheAppsToFinish() async throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        let folder = try Shell.temporaryFolder("adoption")
        defer { try? FileManager.default.removeItem(at: folder) }
        let downloads = folder.appendingPathComponent("Downloads")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try bytes.write(to: nginx.root.appendingPathComponent("a.zip"))

        let library = folder.appendingPathComponent("Library")
        let extensionIdentity = BackgroundSessionIdentity(bundleIdentifier: "com.example.mag.Service", libraryFolder: library)
        var settings = BackgroundSessionEngine.Settings(
            identity: BackgroundSessionIdentity(bundleIdentifier: "com.example.mag", libraryFolder: library),
            maxUnstatedBytes: 1 << 20, completionQueue: DispatchQueue(label: "test.completions"))
        settings.adoptedIdentities = [extensionIdentity]
        let engine = BackgroundSessionEngine(settings: settings) { downloads.appendingPathComponent("\($0.name).zip.part") }
        defer { engine.invalidate(cancellingTransfers: true) }
        let sink = BackgroundEventRecorder(downloads: downloads, knownIssues: nil)
        engine.attach(sink)

        // The system hands the app the extension's session: a task the extension made, the
        // library's key in its description.
        let slot = BackgroundSessionSlot(extensionIdentity, .automatic)
        let session = try #require(engine.state.current.adopted[slot], "the extension's sessions are open")
        #expect(engine.state.current.adopted.count == 2, "both of the extension's lanes")
        let woken = Locked(0)
        #expect(engine.handleEvents(forSession: slot.identifier) { woken.withLock { $0 += 1 } })
        #expect(!engine.handleEvents(forSession: "com.example.mag.Other.newsstand.Library") {})
        let task = session.downloadTask(with: nginx.baseURL.appendingPathComponent("a.zip"))
        task.taskDescription = "a#1"
        task.resume()

        #expect(await sink.handedOverOnce(TransferID(name: "a", generation: 1), bytes: bytes))
        engine.deliveredAllEvents(in: slot)
        #expect(await eventually { woken.current == 1 }, "the wake of the extension's session is answered")
        #expect(try await engine.report().isEmpty, "nothing left running")
    }
}
