import Foundation
import NewsstandCore

extension IssueLibrary {
    /// Downloads (or updates by ranges) and installs `name`, under its claim, as its lifecycle's
    /// transfer of `generation` on the in-process engine: what it did. Its progress and its
    /// install are the lifecycle's events; a failure is the caller's to end it with.
    func transferAndInstall(_ name: String, generation: Int) async -> Result<DownloadOutcome, LibraryError> {
        guard let record = state.issues[name] else { return .failure(.unknownIssue(name: name)) }
        let part = layout.part(of: name, scale: state.scale)
        // Progress comes from the transfer's thread; one stream carries it to the actor in the
        // order it happened (a task per report could deliver an older value after a newer one).
        // Under a slow consumer the oldest values are dropped, never the newest.
        let (reports, reporter) = AsyncStream.makeStream(of: DownloadProgress.self, bufferingPolicy: .bufferingNewest(64))
        let forwarding = Task { for await progress in reports { await self.recordProgress(name, generation, progress) } }
        // Every report is delivered before the download ends, whichever way.
        func finishReports() async {
            reporter.finish()
            await forwarding.value
        }
        var fullReason = FullDownloadReason.notInstalled
        if canUpdateByRanges(record) {
            switch await updateByRanges(name, progress: { reporter.yield($0) }) {
            case .done(let issue, let result):
                await finishReports()
                emit(.updated(name: name, result))
                await handleInstalled(name, generation: generation, from: nil, byRanges: true)
                return .success(DownloadOutcome(issue: issue, update: result))
            case .failed(let error):
                await finishReports()
                return .failure(error)
            case .fallBack(let reason):
                log(.notice, "\(name): downloading the whole bundle: \(reason)")
                fullReason = reason
            }
        }
        // With an index, the bundle is checked and unpacked as it arrives (`+Stream`); what it
        // cannot install takes the `.part` path below.
        switch await streamDownload(record, reason: fullReason, progress: { reporter.yield($0) }) {
        case .staged(let sha256, let source):
            await finishReports()
            let installed = await commitInstall(name, sha256: sha256, source: source, generation: generation, how: " (streamed)")
            return wholeDownload(installed, of: record, reason: fullReason)
        case .failed(let error):
            await finishReports()
            return .failure(error)
        case .fallBack(let reason):
            log(.notice, "\(name): downloading the whole bundle to a .part file: \(reason)")
            if case .indexMismatch = reason { fullReason = reason }
        case nil: break
        }
        let transferred = await transfer(record, into: part) { reporter.yield($0) }
        await finishReports()
        switch transferred {
        case .failure(let error): return .failure(error)
        case .success(let source):
            // An index that lied about an entry is not kept: a later update would trust its hashes.
            var distrusted = false
            if case .indexMismatch = fullReason { distrusted = true }
            let installed = await install(name, from: part, source: source, keepIndex: !distrusted, generation: generation)
            return wholeDownload(installed, of: record, reason: fullReason)
        }
    }

    /// A whole bundle's install as the download's outcome: for an installed issue, an update
    /// (told to observers) that was whole for `reason`.
    private func wholeDownload(
        _ installed: Result<Issue, LibraryError>, of record: IssueRecord, reason: FullDownloadReason
    ) -> Result<DownloadOutcome, LibraryError> {
        installed.map { issue in
            guard record.hasUpdate else { return DownloadOutcome(issue: issue) }
            emit(.updated(name: record.name, .full(reason)))
            return DownloadOutcome(issue: issue, update: .full(reason))
        }
    }

    /// Downloads the bundle into its `.part` file, retrying transient failures with resume.
    /// A retina library whose entry has no retina keys falls back to the normal bundle when the
    /// `@2x` one answers 404 or 410 (and remembers it). Returns the bundle it downloaded.
    private func transfer(
        _ record: IssueRecord, into part: URL, progress: @escaping @Sendable (DownloadProgress) -> Void
    ) async -> Result<BundleSource, LibraryError> {
        let name = record.name
        var source = record.bundleSource(scale: state.scale)
        var url = source.url
        let networkPolicy = policy(of: name)
        var link = accessLink(record, url: url, resource: .bundle)
        var transfer: ResumableDownload
        do {
            transfer = download(source, from: try await link.signed(), into: part, policy: networkPolicy)
        } catch {
            return .failure(error)
        }
        var attempt = 0
        while true {
            attempt += 1
            if Task.isCancelled { return .failure(.cancelled(name: name)) }
            log(.debug, "GET \(url.absoluteString) attempt \(attempt), \(FileStatus.size(of: part) ?? 0) bytes on disk")
            do {
                let outcome = try await transfer.run { received, expected in
                    progress(DownloadProgress(bytesReceived: received, bytesExpected: expected))
                }
                log(
                    .debug,
                    "\(name): \(outcome.bytesTransferred) bytes transferred\(outcome.restarted ? " (restarted from zero)" : "")")
                return .success(source)
            } catch {
                if error == .cancelled || Task.isCancelled { return .failure(.cancelled(name: name)) }
                // An expired or refused link: asked again once, and the `.part` file continues.
                if AccessLink.refuses(error), link.isPaid {
                    do {
                        guard let fresh = try await link.renewed() else { return .failure(Self.refusedAfterRenewal(name, error)) }
                        log(.notice, "\(name): \(url.absoluteString) refused the link (\(error)): renewed, resuming")
                        transfer = download(source, from: fresh, into: part, policy: networkPolicy)
                        continue
                    } catch {
                        return .failure(error)
                    }
                }
                if NormalScaleFallback.isMissing(error), let fallen = await fallBackToNormal(name, from: source) {
                    log(
                        .notice,
                        "\(name): \(url.absoluteString) answered \(error); the entry has no retina keys: using \(fallen.url.absoluteString)"
                    )
                    PartMetadata.discard(part: part)
                    source = fallen
                    url = source.url
                    link = accessLink(record, url: url, resource: .bundle)
                    do {
                        transfer = download(source, from: try await link.signed(), into: part, policy: networkPolicy)
                    } catch {
                        return .failure(error)
                    }
                    attempt = 0
                    continue
                }
                if await retries(name, after: error, attempt: attempt) { continue }
                if error.discardsPartialFile { PartMetadata.discard(part: part) }
                return .failure(Self.libraryError(error, name: name, url: url))
            }
        }
    }

    private func download(_ source: BundleSource, from requestURL: URL, into part: URL, policy: NetworkPolicy)
        -> ResumableDownload
    {
        ResumableDownload(
            url: source.url, requestURL: requestURL, part: part,
            limit: source.size.map(Int64.init) ?? configuration.maxUnstatedBundleBytes,
            limits: configuration.downloadLimits, policy: policy, transport: configuration.transport)
    }

    /// After the `@2x` bundle answered 404 or 410: the normal bundle, when the entry has no
    /// retina keys and `source` was the `@2x` one; remembered (saved) so that a resume after a
    /// relaunch continues the normal bundle.
    private func fallBackToNormal(_ name: String, from source: BundleSource) async -> BundleSource? {
        guard var record = state.issues[name], record.fallback != nil, source.url == record.remoteContentURL,
            source.scale == .retina
        else { return nil }
        record.missingRetinaContentURL = record.remoteContentURL
        state.issues[name] = record
        try? await save()
        return record.bundleSource(scale: state.scale)
    }

    static func libraryError(_ failure: TransferFailure, name: String, url: URL) -> LibraryError {
        switch failure {
        case .httpStatus(let status): .downloadHTTPStatus(name: name, url: url.absoluteString, status: status)
        case .stalled: .downloadStalled(name: name, url: url.absoluteString)
        case .tooLarge(let limit): .downloadTooLarge(name: name, url: url.absoluteString, limit: limit)
        case .unsupportedURL(let reason): .unsupportedURL(url: url.absoluteString, reason: reason)
        case .cancelled: .cancelled(name: name)
        case .file(let error) where error.isNoSpace: .diskFull(path: error.path, reason: error.reason)
        case .file(let error): .fileSystem(path: error.path, reason: error.reason)
        case .networkUnavailable(let reason): .networkUnavailable(url: url.absoluteString, reason: reason)
        case .insecureConnectionRefused(let reason): .insecureConnectionRefused(url: url.absoluteString, reason: reason)
        case .network, .badResponse, .rangeNotSatisfiable, .timedOut, .rejected, .cancelledBySystem:
            .downloadFailed(name: name, url: url.absoluteString, reason: failure.description)
        }
    }

    /// Verifies the complete `.part` file and unpacks it into the issue's content folder; the
    /// lifecycle then takes the install (saved, told, the storage limits applied).
    private func install(
        _ name: String, from part: URL, source: BundleSource, keepIndex: Bool, generation: Int
    ) async -> Result<Issue, LibraryError> {
        guard state.issues[name] != nil else { return .failure(.unknownIssue(name: name)) }
        let installer = await installer(name, part: part, source: source, keepIndex: keepIndex)
        // Hashing and unpacking a bundle take seconds: on a thread of their own, not the actor's
        // or the cooperative pool's.
        let installation = await BlockingWork.run {
            installer.install(expectedSize: source.size, expectedSHA256: source.sha256)
        }
        PartMetadata.discard(part: part)
        switch installation {
        case .failure(let error): return .failure(error)
        case .success(let sha256): return await commitInstall(name, sha256: sha256, source: source, generation: generation)
        }
    }

    /// Records staged content (`commitStaged`) and tells the lifecycle: the end of an unpacked
    /// `.part` file's install, of a streamed download's and of a received file's (`how` says
    /// which in the log).
    func commitInstall(
        _ name: String, sha256: String, source: BundleSource, generation: Int, how: String = ""
    ) async -> Result<Issue, LibraryError> {
        // What was installed before the swap: `commitStaged` records the new content itself.
        let before = lifecycle(of: name)
        let current: IssueRecord
        switch await commitStaged(name, sha256: sha256, source: source) {
        case .failure(let error): return .failure(error)
        case .success(let record): current = record
        }
        await handleInstalled(name, generation: generation, from: before)
        log("\(name) is available\(how)")
        return .success(state.issues[name]?.issue(in: layout) ?? current.issue(in: layout))
    }

    /// Whether a failed attempt gets another: a transient `error` before the last attempt,
    /// after the backoff (waited here).
    func retries(_ name: String, after error: TransferFailure, attempt: Int) async -> Bool {
        guard error.isTransient, attempt < configuration.maxAttempts else { return false }
        let delay = configuration.retryDelay * pow(2, Double(attempt - 1))
        log(.notice, "\(name): \(error), retrying in \(delay) s")
        await configuration.clock.sleep(delay)
        return true
    }

    /// Tells `name`'s lifecycle that the content its record now names is installed (`before`,
    /// the lifecycle before `commitStaged`, says whether it was an update).
    func handleInstalled(_ name: String, generation: Int, from before: IssueLifecycle?, byRanges: Bool = false) async {
        guard let record = state.issues[name], let sha256 = record.installedSHA256, let url = record.installedContentURL else {
            return
        }
        let content = InstalledContent(sha256: sha256, contentURL: url, scale: record.installedScale ?? state.scale)
        await handle(.installed(generation: generation, content, byRanges: byRanges), of: name, from: before)
    }

    /// The installer of `part`, the bundle of `source`. With `keepIndex`, the verified index of
    /// the bundle is fetched to be kept with its content so that a later update can go by
    /// ranges; the install goes on without it when the catalog gives none or it is unusable
    /// (only a later update is then a whole download).
    func installer(_ name: String, part: URL, source: BundleSource, keepIndex: Bool = true) async -> Installer {
        var index: BundleIndex?
        if keepIndex, let record = state.issues[name],
            let fetch = indexFetch(for: record, source: source, policy: policy(of: name))
        {
            switch await fetch.run() {
            case .success(let fetched): index = fetched
            case .failure(let reason): log(.notice, "\(name): the index is not kept: \(reason)")
            }
        }
        return Installer(
            name: name, part: part, layout: layout, limits: configuration.extractionLimits, hasher: configuration.hasher,
            unpacker: configuration.unpacker, index: index)
    }

    /// Bytes of the in-process transfer of `generation`: the lifecycle's event (which tells
    /// observers), then the `Progress` tree and the download's own handlers.
    func recordProgress(_ name: String, _ generation: Int, _ progress: DownloadProgress) async {
        guard running[name] != nil, state.transfers[name]?.generation == generation else { return }
        await handle(.progressed(generation: generation, progress), of: name)
        progressTree.report(progress, of: name)
        for handler in running[name]?.progressHandlers ?? [] { handler(progress) }
    }

    /// The link to fetch `url` of `record`'s issue through: signed by the configuration's
    /// `AccessProvider` when the catalog sells the issue, the URL itself when it is free.
    func accessLink(_ record: IssueRecord, url: URL, resource: AccessRequest.Resource) -> AccessLink {
        AccessLink(
            issue: record.name, productID: record.productID, url: url, resource: resource, isPaid: record.access == .paid,
            provider: configuration.accessProvider)
    }

    /// The error for a paid issue whose renewed link the server refused too.
    static func refusedAfterRenewal(_ name: String, _ failure: TransferFailure) -> LibraryError {
        .notEntitled(name: name, reason: "the server refused the renewed link (\(failure))")
    }
}
