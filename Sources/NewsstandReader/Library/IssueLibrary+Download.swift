import Foundation
import NewsstandCore

extension IssueLibrary {
    /// Downloads, verifies and unpacks an issue, and waits until it is available.
    /// If the issue is already downloading, joins that download (in this library, or, through the
    /// issue's claim, in another process: it waits for that one and finds the issue available).
    /// An available issue without an update is returned at once; one with an update is updated
    /// (by ranges when it can, see `update(_:)`) and stays available, its installed version
    /// readable, until the new one is in place.
    /// - Parameters:
    ///   - name: the issue's name in the catalog.
    ///   - policy: the networks this download may use (`configuration.networkPolicy` by default);
    ///     a download already running keeps its own.
    ///   - progress: called as bytes arrive (bytes on disk, bytes expected).
    /// - Throws: `LibraryError` (`issueBusy` while the issue's download is on the background
    ///   engine, `cancelled` while its removal waits to begin); the issue's status is back to none (the `.part` file is kept
    ///   for a resume unless the download was bad).
    @discardableResult
    public func download(
        _ name: String, policy: NetworkPolicy? = nil, progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws(LibraryError) -> Issue {
        // One that is still ending (its status is committed, its progress not yet finished) is
        // joined: when this returns, the download has ended whole.
        if let record = state.issues[name], record.status == .available, !record.hasUpdate, running[name] == nil {
            return record.issue(in: layout)
        }
        return try await join(name, policy: policy, progress: progress).issue
    }

    /// Starts `name`'s download, or joins the one running, and waits for it (cancelling the
    /// caller cancels it): what it did.
    func join(
        _ name: String, policy: NetworkPolicy? = nil, progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws(LibraryError) -> DownloadOutcome {
        let task = try startTask(name, policy: policy)
        if let progress { running[name]?.progressHandlers.append(progress) }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }

    /// Starts downloading an issue without waiting; follow it with `events()`, `followShelf()`
    /// or `progress(of:)`, or join it with `download(_:)`.
    public func startDownload(_ name: String, policy: NetworkPolicy? = nil) throws(LibraryError) {
        try checkOpen()
        if let record = state.issues[name], record.status == .available, !record.hasUpdate { return }
        _ = try startTask(name, policy: policy)
    }

    /// Continues every download that was under way when the library was last closed (after a
    /// crash or `suspendDownloads()`); returns their names. Join one with `download(_:)`.
    @discardableResult
    public func resumePendingDownloads(policy: NetworkPolicy? = nil) -> [String] {
        // A background transfer's issue is the engine's (`reconcileTransfers`).
        let names = pendingDownloads.filter { state.transfers[$0]?.runsInBackground != true }
        for name in names { _ = try? startTask(name, policy: policy) }
        return names
    }

    /// The progress over every running download, as `Foundation.Progress` (for `ProgressView` or
    /// `observedProgress`): each download weighs the same in it; it starts again from zero when a
    /// download starts while none runs.
    public nonisolated var progress: Progress { progressTree.overall }

    /// The `Foundation.Progress` of the download of `name` while it runs, in process or on the
    /// background engine (bytes received of bytes expected, in step with `LibraryEvent.progress`);
    /// cancelling it cancels the download.
    public nonisolated func progress(of name: String) -> Progress? { progressTree.progress(of: name) }

    /// Cancels an issue's download and waits until it has stopped. Its status goes back to none;
    /// the partial file is kept, so the next download continues it.
    public func cancelDownload(_ name: String) async {
        guard let task = running[name]?.task else { return }
        task.cancel()
        _ = await task.value
    }

    /// Stops every transfer but keeps them pending, as if the app were quitting, and gives their
    /// claims up: what an iOS app calls before it is suspended (in-process transfers do not run
    /// while it is, and no claim may be held then). A later `resumePendingDownloads()` (in this or
    /// a new process) continues them.
    public func suspendDownloads() async {
        for name in running.keys { running[name]?.isSuspending = true }
        let tasks = running.values.map(\.task)
        for task in tasks { task.cancel() }
        for task in tasks { _ = await task.value }
    }

    /// The network policy of `name`'s running download, else the configuration's.
    func policy(of name: String) -> NetworkPolicy {
        running[name]?.policy ?? configuration.networkPolicy
    }

    /// The running download of `name`, or a new one.
    private func startTask(_ name: String, policy: NetworkPolicy?) throws(LibraryError) -> Task<
        Result<DownloadOutcome, LibraryError>, Never
    > {
        if let task = running[name]?.task { return task }
        try checkOpen()
        // Its removal was asked first and waits for this library's downloads to stop.
        if work[name]?.isRemoving == true { throw .cancelled(name: name) }
        guard let record = state.issues[name] else { throw .unknownIssue(name: name) }
        // Handed to the background engine: one transfer per issue (`cancelBackgroundDownload` first).
        if state.transfers[name]?.runsInBackground == true { throw .issueBusy(name: name) }
        let onDisk = FileStatus.size(of: layout.part(of: name, scale: state.scale)) ?? 0
        try checkSpace(
            for: record, alreadyDownloaded: onDisk,
            intent: (policy ?? configuration.networkPolicy) == .automatic ? .automatic : .user)
        progressTree.start(name, received: onDisk, expected: record.contentSize.map(Int64.init)) { [weak self] in
            Task { await self?.cancelDownload(name) }
        }
        let task = Task { await self.runDownload(name) }
        running[name] = InProcessDownload(task: task, policy: policy ?? configuration.networkPolicy)
        if record.status != .available {
            // Shown downloading at once; the status is committed once the download has its claim.
            let progress = DownloadProgress(bytesReceived: onDisk, bytesExpected: record.contentSize.map(Int64.init))
            running[name]?.starting = progress
            emit(.statusChanged(name: name, .downloading(progress)))
            tellFollowers(changed: name)
        }
        return task
    }

    /// Refuses a download whose remaining bytes plus its unpacked content do not fit in what the
    /// platform gives the download's intent (opportunistic space for what the app fetches on its own).
    func checkSpace(for record: IssueRecord, alreadyDownloaded: Int64, intent: TransferIntent) throws(LibraryError) {
        guard let size = record.contentSize.map(Int64.init),
            let available = configuration.availableCapacity(folder, intent == .user ? .important : .opportunistic)
        else { return }
        // Unpacked size is unknown before the download; bundles are stored, not deflated,
        // so the bundle's size is a fair estimate of it. A download that will stream (an index,
        // no `.part` file to continue: `streamDownload`) holds only the unpacked files.
        let streams =
            record.contentIndexURL != nil && alreadyDownloaded == 0 && configuration.unpacker is ZipBundleUnpacker
        let required = streams ? size : max(0, size - alreadyDownloaded) + size
        if available < required {
            throw .insufficientSpace(name: record.name, path: folder.path, required: required, available: available)
        }
    }

    private func runDownload(_ name: String) async -> Result<DownloadOutcome, LibraryError> {
        let acquired = await slots.acquire()
        let result = acquired ? await claimAndDownload(name) : .failure(.cancelled(name: name))
        let ended = running.removeValue(forKey: name)
        progressTree.finish(name)
        // Given back once the download is out of `running` and its progress finished: nothing
        // sees it half-ended while the slot's actor is awaited.
        if acquired { await slots.release() }
        let suspended = ended?.isSuspending ?? false
        // A transfer that began ended on the lifecycle, which said so (`endTransfer`).
        if ended?.endedOnLifecycle == true { return result }
        switch result {
        case .success(let outcome):
            emit(.statusChanged(name: name, outcome.issue.status))
        case .failure(let error):
            log(.error, "download of \(name) ended: \(error)")
            if suspended, error == .cancelled(name: name) {
                // Stopped before its status was committed: it was only shown downloading.
                if state.issues[name]?.status == IssueStatus.none {
                    emit(.statusChanged(name: name, .none))
                    tellFollowers(changed: name)
                }
                break
            }
            if let row = state.transfers[name], row.isActive, row.engine == .inProcess {
                // A pending download (a crash's, or one suspended) that failed before it got its
                // claim again: it ends now, as one that ran would; without the claim, so it gives
                // way if another process took the download over meanwhile.
                await handle(.failed(generation: row.generation, error), of: name, withoutClaim: true)
                break
            }
            emit(.downloadFailed(name: name, error))
            // A failed update leaves the installed version available.
            emit(.statusChanged(name: name, state.issues[name]?.status ?? .none))
            tellFollowers(changed: name)
        }
        return result
    }

    /// Takes the issue's claim (waiting while another process or library works on it), then
    /// downloads it, unless that other one left it available. Under the claim the transfer is
    /// the issue's lifecycle's, on the in-process engine: its row and the status are saved
    /// before a byte moves, and its end (installed, failed, suspended) is an event.
    private func claimAndDownload(_ name: String) async -> Result<DownloadOutcome, LibraryError> {
        countClaimant(name, 1)
        defer { countClaimant(name, -1) }
        let claim: IssueClaim?
        do {
            claim = try await claims.wait(for: name)
        } catch {
            return .failure(error)
        }
        guard let claim else { return .failure(.cancelled(name: name)) }
        defer { claim.release() }
        // Another process may have downloaded the issue (or removed it) while we waited.
        await synchronize()
        guard let record = state.issues[name] else { return .failure(.unknownIssue(name: name)) }
        if record.status == .available, !record.hasUpdate { return .success(DownloadOutcome(issue: record.issue(in: layout))) }
        // An update leaves the issue available: its installed version stays readable until the
        // new one is swapped in whole, and a crash leaves it as it was (the update is asked again).
        let intent: TransferIntent = policy(of: name) == .automatic ? .automatic : .user
        prepareTransfer(of: record, engine: .inProcess, intent: intent)
        await handle(.requested(intent, engine: .inProcess), of: name)
        guard let row = state.transfers[name], row.isActive, row.engine == .inProcess else {
            return .failure(.cancelled(name: name))
        }
        let generation = row.generation
        running[name]?.starting = nil
        running[name]?.endedOnLifecycle = true
        do {
            try await save()
        } catch {
            await endTransfer(name, generation: generation, error)
            return .failure(error)
        }
        let result: Result<DownloadOutcome, LibraryError> =
            Task.isCancelled ? .failure(.cancelled(name: name)) : await transferAndInstall(name, generation: generation)
        if case .failure(let error) = result { await endTransfer(name, generation: generation, error) }
        return result
    }

    /// The end of an in-process transfer that did not install, under its claim: stopped to go
    /// on later (`suspendDownloads()`, `close()`: it stays pending), or failed (cancelled too).
    private func endTransfer(_ name: String, generation: Int, _ error: LibraryError) async {
        if running[name]?.isSuspending == true, error == .cancelled(name: name) {
            await handle(.suspended(generation: generation), of: name)
        } else {
            await handle(.failed(generation: generation, error), of: name)
        }
    }
}
