/// An issue's life on this device as one value: what is installed, the transfer under way, the
/// last failure. It takes events (`LifecycleEvent`) and returns what to do (`LifecycleAction`);
/// it does no I/O and holds no reference, so every transition is tested without a network or a
/// file (IssueLifecycleTests). `IssueLibrary` keeps one per issue, persists it and carries out
/// the actions; nothing else changes an issue's status.
///
/// Transfers are keyed by generation: every start and restart raises `lastGeneration`, and an
/// event of any other generation than the current transfer's is stale: ignored, or (an engine
/// still running it, a file it left) cleaned up.
///
///     notInstalled ──requested──▶ queued ──started──▶ transferring ──received──▶ received
///          ▲  ▲                     │ ▲                  │    │                     │
///          │  └──────cancelled──────┘ └────suspended─────┘    │ ranges update       installing
///          │                                                  ▼                     ▼
///          └──removed── removing ◀─removalStarted── installed ◀──────installed───────┘
///                                                   (updateAvailable / updating: the same
///                                                    path with the old content readable)
///     any transfer stage ──failed──▶ failed (not installed) / installed (an update failed)
struct IssueLifecycle: Equatable, Sendable {
    /// A transfer restarted this many times without finishing fails (an engine that keeps
    /// losing it, a part file that keeps disappearing): never a loop.
    static let maxRestarts = 8

    /// The issue's name (for the errors it makes).
    let name: String
    /// What the content folder holds, when anything.
    var installed: InstalledContent?
    /// Whether the catalog lists other content than `installed` (meaningless without it).
    var hasUpdate = false
    /// The transfer under way.
    var transfer: TransferState?
    /// Why the last download or update failed (the error's description, as the state keeps it),
    /// until the next one is asked.
    var failure: String?
    /// Whether the content is being removed.
    var isRemoving = false
    /// The last generation handed out (kept after the transfer ends, so a late event is stale).
    var lastGeneration = 0

    /// A not-installed issue with no history.
    init(name: String) { self.name = name }

    /// The phase an app shows.
    var phase: IssuePhase {
        if isRemoving { return .removing }
        if let transfer {
            if installed != nil { return .updating }
            switch transfer.stage {
            case .queued: return .queued
            case .transferring: return .transferring
            case .received: return .received
            case .installing: return .installing
            }
        }
        if installed != nil { return hasUpdate ? .updateAvailable : .installed }
        return failure == nil ? .notInstalled : .failed
    }

    /// Newsstand Kit's three statuses: available while content is installed (also while an
    /// update runs: the old version stays readable), downloading while a first download runs.
    var status: IssueStatus {
        if installed != nil { return .available }
        if let transfer { return .downloading(transfer.progress) }
        return .none
    }

    /// Applies `event` and returns what to do, in order.
    mutating func handle(_ event: LifecycleEvent) -> [LifecycleAction] {
        switch event {
        case .requested(let intent, let engine): return request(intent, engine: engine)
        case .started(let generation):
            guard var current = transfer(generation), current.stage == .queued else { return [] }
            current.stage = .transferring
            transfer = current
            return [.emitStatus]
        case .progressed(let generation, let progress):
            guard var current = transfer(generation), current.file == nil else { return [] }
            let began = current.stage == .queued
            current.stage = .transferring
            current.progress = progress
            transfer = current
            return began ? [.emitStatus, .emitProgress(progress)] : [.emitProgress(progress)]
        case .received(let generation, let file): return receive(file, generation: generation)
        case .installing(let generation):
            guard var current = transfer(generation), case .received(let file) = current.stage else { return [] }
            current.stage = .installing(file: file)
            transfer = current
            return [.emitStatus]
        case .staged(let content):
            guard !isRemoving else { return [] }
            installed = content
            hasUpdate = false
            failure = nil
            return [.save]
        case .swapUndone(let previous, let hadUpdate):
            guard !isRemoving else { return [] }
            installed = previous
            hasUpdate = previous != nil && hadUpdate
            return [.save]
        case .installed(let generation, let content, let byRanges):
            guard let current = transfer(generation) else { return [] }
            let wasUpdate = installed != nil
            installed = content
            hasUpdate = false
            transfer = nil
            failure = nil
            var actions: [LifecycleAction] = [
                .save, .emitStatus, .recordInstall(update: wasUpdate, byRanges: byRanges), .discardPartFile,
            ]
            if let file = current.file { actions.append(.discardReceivedFile(file)) }
            actions.append(.applyStoragePolicy)
            return actions
        case .failed(let generation, let error):
            guard let current = transfer(generation) else { return [] }
            return fail(current, with: error)
        case .suspended(let generation):
            guard var current = transfer(generation), current.stage == .transferring else { return [] }
            current.stage = .queued
            transfer = current
            return [.emitStatus]
        case .cancelled:
            // A received file is being installed: too late to cancel, and nothing is lost by finishing.
            guard let current = transfer, current.file == nil else { return [] }
            transfer = nil
            failure = nil
            return [
                .cancelTransfer(generation: current.generation, engine: current.engine, keepingData: true), .save, .emitStatus,
            ]
        case .removalStarted:
            // Saved when a transfer or a failure is dropped: a crash during the removal must not
            // bring back a download the user has just removed.
            var actions: [LifecycleAction] = transfer != nil || failure != nil ? [.save] : []
            if let current = transfer {
                actions.append(.cancelTransfer(generation: current.generation, engine: current.engine, keepingData: false))
                if let file = current.file { actions.append(.discardReceivedFile(file)) }
                transfer = nil
            }
            actions.append(.discardPartFile)
            isRemoving = true
            failure = nil
            actions.append(.emitStatus)
            return actions
        case .removed:
            installed = nil
            hasUpdate = false
            isRemoving = false
            failure = nil
            return [.save, .emitStatus]
        case .catalogCompared(let hasNewContent):
            let new = installed != nil && hasNewContent
            guard new != hasUpdate else { return [] }
            hasUpdate = new
            return [.save, .emitStatus]
        case .recovered(let facts): return recover(facts)
        case .engineReported(let generation, let engine, let report):
            guard let current = transfer(generation) else { return staleReport(generation, engine: engine, report) }
            return follow(report, of: current)
        }
    }

    /// The current transfer when it has `generation`.
    private func transfer(_ generation: Int) -> TransferState? {
        guard let transfer, transfer.generation == generation else { return nil }
        return transfer
    }

    private mutating func request(_ intent: TransferIntent, engine: TransferEngineKind) -> [LifecycleAction] {
        if isRemoving || (installed != nil && !hasUpdate) { return [] }
        if var current = transfer {
            // Joined; a user asking for what the app fetched on its own makes it the user's.
            guard current.intent == .automatic, intent == .user else { return [] }
            current.intent = .user
            transfer = current
            return [.save]
        }
        lastGeneration += 1
        transfer = TransferState(
            generation: lastGeneration, stage: .queued, intent: intent, engine: engine,
            progress: DownloadProgress(bytesReceived: 0, bytesExpected: nil))
        failure = nil
        return [.save, .emitStatus, .startTransfer(generation: lastGeneration, engine: engine)]
    }

    private mutating func receive(_ file: String, generation: Int) -> [LifecycleAction] {
        guard var current = transfer(generation) else {
            if var current = transfer, current.file == nil, generation < current.generation,
                current.generation - generation <= current.restarts
            {
                // An earlier generation of the same request, taken for lost while its file was on
                // its way (a relaunch's events can come after the reconcile that restarted it): as
                // good as the current one's, since the install checks it against the size and
                // SHA-256 the request was made with. The newer transfer is cancelled.
                current.stage = .received(file: file)
                transfer = current
                return [
                    .save, .emitStatus,
                    .cancelTransfer(generation: current.generation, engine: current.engine, keepingData: false),
                    .install(generation: current.generation, file: file),
                ]
            }
            // Any other generation's file is no one's to install (the same hand-off again excepted).
            return transfer?.file == file ? [] : [.discardReceivedFile(file)]
        }
        if let held = current.file {
            // The same hand-off twice is one; a second file for one generation is not ours.
            return held == file ? [] : [.discardReceivedFile(file)]
        }
        current.stage = .received(file: file)
        transfer = current
        return [.save, .emitStatus, .install(generation: generation, file: file)]
    }

    private mutating func fail(_ current: TransferState, with error: LibraryError) -> [LifecycleAction] {
        transfer = nil
        failure = error.description
        var actions: [LifecycleAction] = [.save]
        if let file = current.file { actions.append(.discardReceivedFile(file)) }
        actions += [.emitFailure(error), .emitStatus]
        return actions
    }

    /// A new generation of the same transfer (its engine lost it, or failed with data to go on
    /// from): the part file or resume data carries over; past `maxRestarts` it fails, with the
    /// failure that made it restart when there was one (it says why), else as lost.
    private mutating func restart(_ current: TransferState, after failure: LibraryError? = nil) -> [LifecycleAction] {
        guard current.restarts < Self.maxRestarts else {
            return fail(current, with: failure ?? .transferLost(name: name, restarts: current.restarts))
        }
        lastGeneration += 1
        var next = current
        next.generation = lastGeneration
        next.stage = .queued
        next.restarts += 1
        transfer = next
        return [.save, .startTransfer(generation: lastGeneration, engine: current.engine)]
    }

    private mutating func recover(_ facts: RecoveryFacts) -> [LifecycleAction] {
        var actions: [LifecycleAction] = []
        isRemoving = false
        if installed != nil, !facts.hasContent {
            installed = nil
            hasUpdate = false
            actions.append(.save)
        }
        guard var current = transfer else { return actions }
        if facts.installCommitted, installed != nil {
            transfer = nil
            failure = nil
            actions += [.save, .emitStatus, .discardPartFile]
            if let file = facts.receivedFile ?? current.file { actions.append(.discardReceivedFile(file)) }
            return actions
        }
        if let file = facts.receivedFile {
            if current.file != file {
                current.stage = .received(file: file)
                transfer = current
                actions.append(.save)
            }
            return actions + [.install(generation: current.generation, file: file)]
        }
        if current.file != nil {
            // The received file is gone (removed by hand, or a disk tool): fetch it again.
            return actions + restart(current)
        }
        return actions + follow(facts.engine ?? .unknown, of: current)
    }

    /// What to do with a current transfer's engine report.
    private mutating func follow(_ report: EngineReport, of current: TransferState) -> [LifecycleAction] {
        switch report {
        case .running(let progress):
            var running = current
            if running.file != nil { return [] }
            running.stage = .transferring
            running.progress = progress
            transfer = running
            return [.reattach(generation: current.generation), .emitProgress(progress)]
        case .finished(let file):
            return receive(file, generation: current.generation)
        case .failed(let error, let resumable):
            if current.file != nil { return [] }
            return resumable ? restart(current, after: error) : fail(current, with: error)
        case .unknown:
            if current.file != nil { return [] }
            return restart(current)
        }
    }

    /// An engine's report on a generation that is not the current one: a task still running it
    /// is an orphan to cancel, a file it left is deleted.
    private func staleReport(_ generation: Int, engine: TransferEngineKind, _ report: EngineReport) -> [LifecycleAction] {
        switch report {
        case .running:
            return [.cancelTransfer(generation: generation, engine: engine, keepingData: false)]
        case .finished(let file):
            // Not when an earlier generation's late file became the current transfer's.
            return transfer?.file == file ? [] : [.discardReceivedFile(file)]
        case .failed, .unknown: return []
        }
    }
}
