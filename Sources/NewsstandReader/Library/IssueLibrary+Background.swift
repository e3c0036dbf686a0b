import Foundation
import NewsstandCore

/// One issue's transfer on the background engine, as the shelf shows it.
public struct BackgroundTransfer: Sendable, Equatable {
    /// The issue.
    public var name: String
    /// Its key on the engine (`name#generation`).
    public var id: TransferID
    /// Queued, transferring, received (waiting to be installed) or installing; for an installed
    /// issue whose update runs, updating.
    public var phase: IssuePhase
    /// Bytes so far, as the engine last reported.
    public var progress: DownloadProgress
    /// Who asked.
    public var intent: TransferIntent
}

extension IssueLibrary {
    /// How long a reconcile waits by default (`LibraryConfiguration.eventGrace`) for the events
    /// of transfers an engine's report does not list, when the engine may deliver them after it
    /// was asked (`TransferEngine.reportsFinishedTransfers`), before it takes them for lost and
    /// starts them again: 2 seconds.
    public static let eventGrace: TimeInterval = 2

    /// Uses `choice` for background downloads: attaches the library to it (events a relaunch
    /// brought are delivered now) and reconciles (`reconcileTransfers()`). Call it at launch,
    /// before `handleEventsForBackgroundSession`: on Apple platforms the system delivers a
    /// relaunch's events once the sessions are opened again. A second call does nothing.
    @discardableResult
    public func useBackgroundEngine(_ choice: BackgroundEngine) async -> ReconcileResult {
        // The engine's first events may finish a transfer before the reconcile looks at it.
        let watched = activeTransferNames()
        let since = backgroundInstalls
        if backgroundEngine == nil {
            let engine = choice.make(for: layout, scale: state.scale, configuration: configuration)
            let (events, continuation) = AsyncStream.makeStream(of: EngineEvent.self)
            backgroundEngine = engine
            backgroundEngineForSystem.withLock { $0 = engine }
            // Carries the engine's events to the actor in order, for the library's life.
            Task { for await event in events { await self.take(event) } }
            engine.attach(LibraryTransferSink(handOff: TransferHandOff(downloads: layout.downloads), events: continuation))
        }
        return await reconcile(watching: watched, since: since)
    }

    /// The rows of the background transfers under way (of issues the library has).
    private var backgroundRows: [TransferRecord] {
        state.transfers.values.filter { $0.runsInBackground && state.issues[$0.name] != nil }
    }

    /// The issues with a background transfer under way.
    private func activeTransferNames() -> Set<String> { Set(backgroundRows.map(\.name)) }

    /// For `application(_:handleEventsForBackgroundURLSession:completionHandler:)`, called
    /// synchronously at launch, before any library is open or anything awaited: when
    /// `identifier` is a library's background session (`.urlSession`), `completion` is called
    /// exactly once, on the main queue, after the library that opens that session has recorded
    /// every event of this wake, and this returns true. It returns false for any other session:
    /// `completion` is then the caller's to call.
    public nonisolated static func handleEventsForBackgroundSession(
        identifier: String, completion: @escaping @Sendable () -> Void
    ) -> Bool {
        BackgroundSessionRegistry.shared.handleEvents(forSession: identifier, completion: completion)
    }

    /// `IssueLibrary.handleEventsForBackgroundSession(identifier:completion:)`, or, for a session
    /// of this library's custom engine (`TransferEngine.handleEvents`), that engine's: returns
    /// false when neither has the session, and `completion` is the caller's.
    public nonisolated func handleEventsForBackgroundSession(
        identifier: String, completion: @escaping @Sendable () -> Void
    ) -> Bool {
        if Self.handleEventsForBackgroundSession(identifier: identifier, completion: completion) { return true }
        guard let engine = backgroundEngineForSystem.withLock({ $0 }) else { return false }
        return engine.handleEvents(forSession: identifier, completion: completion)
    }

    /// Hands the download of `name` (or its update) to the background engine and returns once it
    /// is saved as queued: it goes on while the app is suspended or killed, and a relaunched
    /// library adopts it (`reconcileTransfers()`). Joins a background download already asked.
    /// - Throws: `backgroundEngineMissing` before `useBackgroundEngine(_:)`, `unknownIssue`,
    ///   `insufficientSpace`, `issueBusy` while this library downloads it in process, or while
    ///   another owner (a process downloading or installing it) holds its claim for longer than
    ///   `LibraryConfiguration.lockTimeout`.
    public func startBackgroundDownload(_ name: String, intent: TransferIntent = .user) async throws(LibraryError) {
        try checkOpen()
        guard backgroundEngine != nil else { throw .backgroundEngineMissing(path: folder.path) }
        await synchronize()
        guard state.issues[name] != nil else { throw .unknownIssue(name: name) }
        if running[name] != nil { throw .issueBusy(name: name) }
        // From the saved row to the engine's having the job, the issue's claim: another
        // process's reconcile would otherwise find the row and no job, and start it again.
        countClaimant(name, 1)
        defer { countClaimant(name, -1) }
        guard let claim = try await claims.wait(for: name, within: configuration.lockTimeout) else {
            throw .issueBusy(name: name)
        }
        defer { claim.release() }
        await synchronize()
        guard let record = state.issues[name] else { throw .unknownIssue(name: name) }
        if record.status == .available, !record.hasUpdate { return }
        if state.transfers[name]?.runsInBackground != true {
            let part = FileStatus.size(of: layout.part(of: name, scale: state.scale)) ?? 0
            try checkSpace(for: record, alreadyDownloaded: part, intent: intent)
            prepareTransfer(of: record, engine: .background, intent: intent)
        }
        await handle(.requested(intent, engine: .background), of: name)
        // Returns once the engine has the job (or its refusal is recorded).
        await settleEngineCalls()
    }

    /// Makes `record`'s transfer row ready for a new transfer on `engine` (`.requested` then
    /// gives it its next generation), unless one runs on that engine (it is joined). A pending
    /// in-process transfer handed to the background engine ends here, its part file kept.
    func prepareTransfer(of record: IssueRecord, engine: TransferEngineKind, intent: TransferIntent) {
        let name = record.name
        if let row = state.transfers[name], row.isActive, row.engine == engine { return }
        let source = record.bundleSource(scale: state.scale)
        var row =
            state.transfers[name]
            ?? TransferRecord(
                name: name, generation: 0, stage: .ended, engine: engine, intent: intent, url: source.url,
                expectedSize: source.size, expectedSHA256: source.sha256, scale: source.scale)
        row.stage = .ended
        row.receivedFile = nil
        row.url = source.url
        row.expectedSize = source.size
        row.expectedSHA256 = source.sha256
        row.scale = source.scale
        row.engine = engine
        row.intent = intent
        row.restarts = 0
        row.bytesReceived = 0
        row.bytesExpected = source.size.map(Int64.init)
        state.transfers[name] = row
    }

    /// Moves every in-process download to the background engine, for an app whose background
    /// time runs out: call it from the expiration handler of `beginBackgroundTask(expirationHandler:)`
    /// (or as the app enters the background). Each download stops as `suspendDownloads()` stops
    /// it, keeping its part file, and goes on as a background download of the same intent (a
    /// download asked with `NetworkPolicy.automatic` stays automatic). Background URLSessions
    /// continue the part with `Range` and `If-Range`, so a 206 brings only the rest; aria2 starts
    /// a file of its own, and the part is discarded once the issue is installed. An update goes
    /// on as a download of its whole new bundle.
    /// - Returns: the issues now on the background engine. One the engine refused keeps its
    ///   pending download (`resumePendingDownloads()` continues it in process).
    /// - Throws: `backgroundEngineMissing` before `useBackgroundEngine(_:)`.
    @discardableResult
    public func handDownloadsToBackground() async throws(LibraryError) -> [String] {
        try checkOpen()
        guard backgroundEngine != nil else { throw .backgroundEngineMissing(path: folder.path) }
        let intents = running.keys.sorted().map { name in
            (name, policy(of: name) == .automatic ? TransferIntent.automatic : .user)
        }
        await suspendDownloads()
        var handed: [String] = []
        for (name, intent) in intents {
            do {
                try await startBackgroundDownload(name, intent: intent)
            } catch {
                log(.error, "download of \(name) stays in process: \(error)")
            }
            if state.transfers[name]?.runsInBackground == true { handed.append(name) }
        }
        return handed
    }

    /// Installs a bundle that arrived outside the library (a Background Assets download, a file
    /// the app fetched itself): moved (or copied) into `Downloads/` as a received file, then
    /// verified against the catalog's size and SHA-256 and unpacked, as a background download's
    /// file is. Waits for the install.
    /// - Throws: `unknownIssue`; `issueBusy` while the issue is being downloaded; the
    ///   verification's or the unpack's error (the library is as it was).
    @discardableResult
    public func adopt(_ file: URL, for name: String) async throws(LibraryError) -> Issue {
        try checkOpen()
        await synchronize()
        guard let record = state.issues[name] else { throw .unknownIssue(name: name) }
        if running[name] != nil || state.transfers[name]?.runsInBackground == true { throw .issueBusy(name: name) }
        prepareTransfer(of: record, engine: .background, intent: state.transfers[name]?.intent ?? .automatic)
        guard var row = state.transfers[name] else { throw .unknownIssue(name: name) }
        row.generation += 1
        row.stage = .queued
        row.lastError = nil
        state.transfers[name] = row
        switch TransferHandOff(downloads: layout.downloads).take(file, of: row.id, status: nil) {
        case .failure(let refusal):  // a file that could not be moved (no status was given)
            row.stage = .ended
            state.transfers[name] = row
            throw refusal.libraryError(name: name, url: file.path)
        case .success(let received):
            await handle(.received(generation: row.generation, file: received), of: name)
        }
        await waitForInstalls()
        guard let current = state.issues[name], current.status == .available, state.transfers[name]?.isActive != true,
            state.transfers[name]?.lastError == nil
        else {
            throw .downloadFailed(name: name, url: file.path, reason: state.transfers[name]?.lastError ?? "not installed")
        }
        return current.issue(in: layout)
    }

    /// Stops `name`'s background download; the engine keeps what it got for the next one. A
    /// download whose file has arrived is installed all the same.
    public func cancelBackgroundDownload(_ name: String) async {
        guard state.transfers[name]?.runsInBackground == true else { return }
        await handle(.cancelled, of: name, withoutClaim: true)
    }

    /// Every background transfer under way, newest issue first.
    public var backgroundTransfers: [BackgroundTransfer] {
        state.newestFirst().compactMap { name in
            guard let row = state.transfers[name], row.runsInBackground, let life = lifecycle(of: name) else { return nil }
            return BackgroundTransfer(name: name, id: row.id, phase: life.phase, progress: row.progress, intent: row.intent)
        }
    }

    /// Why the last download of `name` (in process or in the background) failed, until the next one is asked.
    public func lastTransferError(of name: String) -> String? {
        guard let row = state.transfers[name], !row.isActive else { return nil }
        return row.lastError
    }

    /// Brings the background transfers in line with the engine and the files, as after a
    /// relaunch: a received file is verified and installed (this waits for it), a transfer the
    /// engine finished is taken over, one it still runs is followed, one it lost (or that failed
    /// with something to resume from) is started again as a new generation, up to
    /// `IssueLifecycle.maxRestarts`; what the engine holds for an older generation is cancelled.
    /// When the engine cannot be asked, only received files are installed.
    @discardableResult
    public func reconcileTransfers() async -> ReconcileResult {
        await reconcile(watching: activeTransferNames(), since: backgroundInstalls)
    }

    /// `reconcileTransfers()`, counting as installed every issue of `watched` that this library
    /// installed since `since` (its `backgroundInstalls` then), by the reconcile or by the
    /// engine's events meanwhile; what another process installed meanwhile is theirs to say.
    /// A transfer whose claim another owner holds (a process handing it over or installing
    /// it) is left to it.
    private func reconcile(watching watched: Set<String>, since: [String: Int]) async -> ReconcileResult {
        guard let engine = backgroundEngine else { return ReconcileResult() }
        await synchronize()
        // An install under way changes the content and the row: the facts are read after it.
        await waitForInstalls()
        var result = ReconcileResult()
        let handOff = TransferHandOff(downloads: layout.downloads)
        var reports = await ask(engine)
        // A transfer the first report listed was not lost: missing from the report after the
        // wait, it finished (or failed) meanwhile and its event is on its way. It is followed as
        // that report saw it, not started again (the second fetch of a bundle a relaunch had).
        let listedFirst = reports
        if let listed = reports, !engine.reportsFinishedTransfers {
            // A transfer the engine does not list may have finished with its event on the way:
            // a relaunch's events come after the session opens, and this asks before them.
            let missing = backgroundRows.filter { listed[$0.id] == nil && handOff.alreadyTaken($0.id) == nil }
            if !missing.isEmpty {
                await waitForEvents(changing: missing, handOff: handOff)
                reports = await ask(engine)
            }
        }
        let issues = try? OpenFolder.open(layout.issues)
        let active = backgroundRows
        for row in active {
            // One the engine's events started meanwhile is theirs to finish.
            guard installTask(of: row.name) == nil else { continue }
            countClaimant(row.name, 1)
            defer { countClaimant(row.name, -1) }
            guard let claim = await claimNow(row.name) else { continue }
            defer { claim.release() }
            // Under the claim, the row as the last owner left it.
            await synchronize()
            guard installTask(of: row.name) == nil, let now = state.transfers[row.name], now.runsInBackground,
                now.generation == row.generation, now.stage == row.stage
            else { continue }
            // The row's own file may be an earlier generation's (`IssueLifecycle.receive`).
            let file = handOff.alreadyTaken(row.id) ?? now.receivedFile.flatMap(handOff.present)
            guard file != nil || reports != nil else { continue }
            var report: EngineReport = .unknown
            if let found = reports?[row.id] ?? listedFirst?[row.id] { report = take(found, of: row, handOff: handOff) }
            // An install committed by a process that ended before the transfer did: its swap is
            // settled to the version the state names (this library holds the claim), and the
            // transfer ends as installed.
            let committed = state.issues[row.name]?.hasInstalled(row) == true
            if committed, let failure = await settle(row.name, recorded: row.expectedSHA256) {
                log(.error, "\(row.name): the committed install could not be settled: \(failure)")
            }
            var facts = RecoveryFacts(
                hasContent: issues?.kind(of: row.name) == .folder, receivedFile: file, engine: file == nil ? report : nil)
            facts.installCommitted = committed && facts.hasContent
            await handle(.recovered(facts), of: row.name)
            // A restart's job reaches the engine before the claim is given up.
            await settleEngineCalls()
            let hasFile = file != nil
            switch report {
            case .finished: result.received.append(row.name)
            case .unknown where !hasFile: result.restarted.append(row.name)
            case .failed(_, true) where !hasFile: result.restarted.append(row.name)
            case .running: result.running.append(row.name)
            default: if hasFile { result.received.append(row.name) }
            }
        }
        // What the engine holds that is not a current transfer is an orphan, by the rows as
        // committed after the report: a job another process handed over since this reconcile
        // began had its row saved before the engine had it, and is no orphan.
        await synchronize()
        for (id, _) in reports ?? [:]
        where state.transfers[id.name].map({ !$0.runsInBackground || $0.generation != id.generation }) ?? true {
            log(.notice, "\(id): not a transfer of this library's now; cancelled on the engine")
            await engine.cancel(id, keepingData: false)
            result.orphans += 1
        }
        await waitForInstalls()
        // Also what the engine's events finished meanwhile (a report of "running" can be a
        // moment old).
        for name in watched.union(active.map(\.name)).sorted()
        where (backgroundInstalls[name] ?? 0) > (since[name] ?? 0) && state.issues[name]?.status == .available {
            result.installed.append(name)
            if !result.received.contains(name) { result.received.append(name) }
            result.running.removeAll { $0 == name }
        }
        return result
    }

    /// What `engine` holds, or nil when it cannot be asked.
    private func ask(_ engine: any TransferEngine) async -> [TransferID: TransferReport]? {
        do {
            return try await engine.report()
        } catch {
            log(.error, "the background engine could not be asked: \(error)")
            return nil
        }
    }

    /// Waits up to `LibraryConfiguration.eventGrace` until each of `rows` has moved on (its event arrived: a file
    /// handed over, a failure, another stage or generation), while the engine's events run; or
    /// until the engine says it delivered every event it had (a relaunch's
    /// `urlSessionDidFinishEvents`, taken after the events before it): a row that has not moved
    /// by then has no event coming. On a loaded machine a wake's events took longer than the grace,
    /// and a transfer started again for that was fetched twice.
    private func waitForEvents(changing rows: [TransferRecord], handOff: TransferHandOff) async {
        let clock = configuration.clock
        let deadline = clock.now() + configuration.eventGrace
        let deliveries = engineDeliveries
        while clock.now() < deadline, engineDeliveries == deliveries {
            let waiting = rows.filter { row in
                guard let now = state.transfers[row.name], now.runsInBackground else { return false }
                return now.generation == row.generation && now.stage == row.stage && handOff.alreadyTaken(row.id) == nil
            }
            if waiting.isEmpty { return }
            await clock.sleep(0.05)
        }
    }

    /// Stops an engine that runs outside the process (a daemon, `TransferEngine.stopIfIdle()`)
    /// when this library has no background transfer left; what a command-line program calls
    /// before it exits (an app's engine stops on its own while it is attached). Returns whether
    /// it stopped or had nothing to stop.
    @discardableResult
    public func stopBackgroundEngineIfIdle() async -> Bool {
        guard let engine = backgroundEngine else { return true }
        guard state.transfers.values.allSatisfy({ !$0.runsInBackground }) else { return false }
        return (try? await engine.stopIfIdle()) ?? false
    }

    /// `name`'s claim if no one holds it now (another process handing the issue over or
    /// installing it does), else nil.
    private func claimNow(_ name: String) async -> IssueClaim? {
        let claims = claims
        return await BlockingWork.run { try? claims.take(name) } ?? nil
    }

    /// Waits until every install of a received file under way has ended.
    public func waitForInstalls() async {
        while let task = work.values.lazy.compactMap(\.install).first { await task.value }
    }

    /// An engine's report on a current transfer, as the lifecycle takes it: a finished file is
    /// handed over first (moved into `Downloads/`).
    private func take(_ report: TransferReport, of row: TransferRecord, handOff: TransferHandOff) -> EngineReport {
        switch report {
        case .running(let progress):
            return .running(progress)
        case .failed(let failure, let resumable):
            return .failed(Self.libraryError(failure, name: row.name, url: row.url), resumable: resumable)
        case .finished(let file, let status):
            switch handOff.take(file, of: row.id, status: status) {
            case .success(let name): return .finished(file: name)
            case .failure(let refusal):
                // A file that could not be moved may come again; an error page would not.
                let resumable = if case .file = refusal { true } else { false }
                return .failed(refusal.libraryError(name: row.name, url: row.url.absoluteString), resumable: resumable)
            }
        }
    }
}

/// What `reconcileTransfers()` did.
public struct ReconcileResult: Sendable, Equatable {
    /// Issues whose received file was installed now.
    public var installed: [String] = []
    /// Issues whose file had arrived (installed, or refused: see the events).
    public var received: [String] = []
    /// Issues the engine still runs.
    public var running: [String] = []
    /// Issues started again because the engine had lost their transfer or it failed resumably.
    public var restarted: [String] = []
    /// Transfers of older generations (or of no transfer now) cancelled on the engine.
    public var orphans = 0

    /// Nothing done.
    public init() {}
}
