import Foundation
import NewsstandCore

/// The background transfers' side of the library: an issue's `IssueLifecycle` is built from its
/// record and its transfer row, takes an event, and is written back; the library then carries
/// out the actions it returned, in order.
extension IssueLibrary {
    /// `name`'s lifecycle as the state has it.
    func lifecycle(of name: String) -> IssueLifecycle? {
        state.lifecycle(of: name, installing: installTask(of: name) != nil)
    }

    /// Gives `event` to `name`'s lifecycle (as the state has it, or `before`, taken before a
    /// step that already wrote part of the event's outcome), writes the lifecycle back and
    /// carries out its actions. An event handled `withoutClaim` (an engine's) is written as a
    /// `ClaimlessWrite`: it gives way when another writer gave the issue a new revision meanwhile.
    func handle(
        _ event: LifecycleEvent, of name: String, from before: IssueLifecycle? = nil, withoutClaim: Bool = false
    ) async {
        guard var life = before ?? lifecycle(of: name) else { return }
        let unchanged = life
        let actions = life.handle(event)
        // An event that changed nothing (a stale one) writes nothing: the rows in memory may be
        // older than another process's commit, and writing them back would undo it.
        if before != nil || life != unchanged {
            if withoutClaim {
                state.changeWithoutClaim(name) { $0.store(life, event: event) }
            } else {
                state.store(life, event: event)
            }
        }
        await perform(actions, of: name)
        followBackgroundProgress(of: name)
    }

    /// Keeps a background transfer's `Progress` (`progress(of:)`) in step with its row
    /// (cancelling it cancels the transfer). An in-process download's is its task's (`startTask`).
    private func followBackgroundProgress(of name: String) {
        guard running[name] == nil else { return }
        guard let row = state.transfers[name], row.runsInBackground else {
            progressTree.finish(name)
            return
        }
        let expected = row.bytesExpected ?? row.expectedSize.map(Int64.init)
        progressTree.start(name, received: row.bytesReceived, expected: expected) { [weak self] in
            Task { await self?.cancelBackgroundDownload(name) }
        }
        progressTree.report(DownloadProgress(bytesReceived: row.bytesReceived, bytesExpected: expected), of: name)
    }

    /// Carries out a lifecycle's actions. Engine calls run in tasks of their own: an engine's
    /// `start`, `cancel` or `report` may need the queue its events come on.
    private func perform(_ actions: [LifecycleAction], of name: String) async {
        for action in actions {
            switch action {
            case .save:
                do {
                    try await save()
                } catch {
                    log(.error, "\(name): the transfer's state was not saved: \(error)")
                }
            case .emitStatus:
                let status = state.issues[name]?.status ?? .none
                emit(.statusChanged(name: name, status))
                tellFollowers(changed: name)
            case .emitProgress(let progress):
                emit(.progress(name: name, progress))
                tellFollowers(progress: progress, of: name)
            case .emitFailure(let error):
                log(.error, "download of \(name) ended: \(error)")
                emit(.downloadFailed(name: name, error))
            case .startTransfer(let generation, .background):
                launch(name, generation: generation)
            case .startTransfer(_, .inProcess), .reattach, .cancelTransfer(_, .inProcess, _):
                // The in-process transfer is the task that asked (`claimAndDownload`): it runs now.
                // A reattached transfer's events come to the sink (the engine is attached). An
                // in-process transfer is cancelled by whoever ended it (`cancelDownload`, a removal).
                break
            case .cancelTransfer(let generation, .background, let keepingData):
                if let engine = backgroundEngine {
                    let id = TransferID(name: name, generation: generation)
                    callEngine { await engine.cancel(id, keepingData: keepingData) }
                }
            case .install(let generation, let file):
                startInstall(name, generation: generation, file: file)
            case .discardReceivedFile(let file):
                discardReceived(file)
            case .discardPartFile:
                // The in-process engine's part file (a background engine keeps its own partial
                // data; `cancelTransfer` disposes of it): of no use once the issue is installed
                // or removed.
                PartMetadata.discard(part: layout.part(of: name, scale: state.scale))
            case .applyStoragePolicy:
                do {
                    _ = try await applyStoragePolicy(protecting: [name])
                } catch {
                    log(.error, "\(name) is installed; the storage limits were not applied: \(error)")
                }
            case .recordInstall(let update, let byRanges):
                let row = state.transfers[name]
                if row?.engine == .background { work[name, default: IssueWork()].backgroundInstalls += 1 }
                configuration.analytics?.record(
                    update
                        ? .issueUpdated(name: name, byRanges: byRanges)
                        : .issueDownloaded(name: name, automatically: row?.intent == .automatic))
            }
        }
    }

    /// Hands the current generation's job to the engine; a refusal comes back as its failure.
    private func launch(_ name: String, generation: Int) {
        // Closing (an event handled across `close()`): the next open's reconcile starts it.
        guard !isClosed, let engine = backgroundEngine, let row = state.transfers[name], row.generation == generation else {
            return
        }
        var job = TransferJob(
            id: row.id, url: row.url, expectedSize: row.expectedSize.map(Int64.init), intent: row.intent,
            resumeData: row.resumeData)
        job.apply(row.intent == .automatic ? .automatic : configuration.networkPolicy)
        log("\(name): handed to the background engine as \(row.id)")
        // The job's URL is a paid issue's signed link; the row keeps the catalog's.
        let link = state.issues[name].map { accessLink($0, url: row.url, resource: .bundle) }
        let unsigned = job
        callEngine {
            var handed = unsigned
            if let link, link.isPaid {
                do throws(LibraryError) {
                    handed.url = try await link.signed()
                } catch {
                    await self.handle(.failed(generation: generation, error), of: name, withoutClaim: true)
                    return
                }
            }
            do throws(TransferFailure) {
                try await engine.start(handed)
            } catch {
                await self.take(.failed(handed.id, error, resumeData: nil))
            }
        }
    }

    /// Runs a call to the engine in a task of its own (never awaited by the engine's events,
    /// which may be holding the engine's queue), kept until it ends so that `settleEngineCalls`
    /// (and `close`) can wait for it.
    private func callEngine(_ call: @escaping @Sendable () async -> Void) {
        engineCallCount += 1
        let key = engineCallCount
        engineCalls[key] = Task {
            await call()
            self.engineCalls[key] = nil
        }
    }

    /// Waits until every call handed to the engine so far has returned.
    func settleEngineCalls() async {
        while let call = engineCalls.values.first { await call.value }
    }

    /// Deletes a received file in `Downloads/` (only a name the hand-off gives).
    private func discardReceived(_ file: String) {
        guard TransferHandOff.transfer(ofReceived: file) != nil else { return }
        try? OpenFolder.open(layout.downloads).removeRegularFile(file)
    }

    /// Verifies and unpacks a received file, off the actor, under the issue's claim.
    private func startInstall(_ name: String, generation: Int, file: String) {
        // Once `close()` has begun no install starts (an event handled across it would stage a
        // version whose commit the closed store refuses): the file waits in Downloads/ for the
        // next open.
        guard installTask(of: name) == nil, !isClosed else { return }
        work[name, default: IssueWork()].install = Task { await self.installReceived(name, generation: generation, file: file) }
    }

    private func installReceived(_ name: String, generation: Int, file: String) async {
        defer { work[name]?.install = nil }
        countClaimant(name, 1)
        defer { countClaimant(name, -1) }
        let claim: IssueClaim?
        do {
            claim = try await claims.wait(for: name)
        } catch {
            log(.error, "\(name): the received file waits for the issue's claim: \(error)")
            return
        }
        guard let claim else { return }
        defer { claim.release() }
        await synchronize()
        guard let row = state.transfers[name], row.isActive, row.generation == generation else { return }
        await handle(.installing(generation: generation), of: name)
        let source = row.source
        let installer = await installer(name, part: layout.downloads.appendingPathComponent(file), source: source)
        // The wake's completion handler was called already: the app may be suspended any moment.
        let expired = Locked(false)
        let end = configuration.backgroundActivity.begin("Installing \(name)") { expired.withLock { $0 = true } }
        defer { end() }
        let installation = await BlockingWork.run {
            installer.install(expectedSize: source.size, expectedSHA256: source.sha256) { expired.current }
        }
        switch installation {
        case .failure(.cancelled) where expired.current:
            // Cut at a safe point: the received file and its row stay, and the next launch's
            // reconcile installs it.
            log(.notice, "\(name): the system's time ran out; the install resumes at the next launch")
        case .failure(let error):
            await handle(.failed(generation: generation, error), of: name)
        case .success(let sha256):
            let installed = await commitInstall(
                name, sha256: sha256, source: source, generation: generation, how: " (from the background engine)")
            if case .failure(let error) = installed { await handle(.failed(generation: generation, error), of: name) }
        }
    }

    /// One engine event, on the actor, in the order the engine sent them.
    func take(_ event: EngineEvent) async {
        if isClosed {
            if case .delivered(let recorded) = event { recorded() }
            return
        }
        switch event {
        case .progressed(let id, let progress):
            await handle(.progressed(generation: id.generation, progress), of: id.name, withoutClaim: true)
        case .received(let id, let file):
            // The row as committed now: another process (the command that handed this job over
            // after this library opened) may have written it since, and a file discarded on a
            // stale view is a bundle fetched again. Another generation's file is the lifecycle's
            // to judge: an earlier one of the same request is installed in the current one's place.
            await synchronize()
            guard state.transfers[id.name]?.runsInBackground == true else {
                discardReceived(file)
                return
            }
            work[id.name]?.renewedLink = false
            await handle(.received(generation: id.generation, file: file), of: id.name, withoutClaim: true)
        case .refused(let id, let error):
            await handle(
                .engineReported(generation: id.generation, engine: .background, .failed(error, resumable: false)), of: id.name,
                withoutClaim: true)
        case .failed(let id, let failure, let resumeData):
            if let resumeData, resumeData.count <= TransferRow.maxResumeDataBytes, var row = state.transfers[id.name],
                row.generation == id.generation
            {
                row.resumeData = resumeData
                state.changeWithoutClaim(id.name) { $0.transfers[id.name] = row }
            }
            var error = Self.libraryError(failure, name: id.name, url: state.transfers[id.name]?.url ?? folder)
            var resumable = failure.isTransient || resumeData != nil
            if AccessLink.refuses(failure), state.issues[id.name]?.access == .paid {
                // An expired link: a new generation signs again (`launch`), once.
                resumable = !(work[id.name]?.renewedLink ?? false)
                work[id.name, default: IssueWork()].renewedLink = true
                if !resumable { error = Self.refusedAfterRenewal(id.name, failure) }
            }
            await handle(
                .engineReported(generation: id.generation, engine: .background, .failed(error, resumable: resumable)),
                of: id.name,
                withoutClaim: true)
        case .delivered(let recorded):
            engineDeliveries += 1
            recorded()
        }
    }
}
