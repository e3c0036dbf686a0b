import Foundation
import NewsstandCore

extension IssueLibrary {
    /// Downloads, verifies and unpacks an issue, and waits until it is available.
    /// If the issue is already downloading, joins that download. An available issue without
    /// an update is returned at once; one with an update is updated (by ranges when it can,
    /// see `update(_:)`) and stays available, its installed version readable, until the new one
    /// is in place.
    /// - Parameter progress: called as bytes arrive (bytes on disk, bytes expected).
    /// - Throws: `LibraryError`; the issue's status is back to none (the `.part` file is kept
    ///   for a resume unless the download was bad).
    @discardableResult
    public func download(
        _ name: String, progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws(LibraryError) -> Issue {
        if let record = state.issues[name], record.status == .available, !record.hasUpdate {
            return record.issue(in: layout)
        }
        let task = try startTask(name)
        if let progress { progressHandlers[name, default: []].append(progress) }
        let result = await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }

    /// Starts downloading an issue without waiting; follow it with `events()` or join it with
    /// `download(_:)`.
    public func startDownload(_ name: String) throws(LibraryError) {
        try checkOpen()
        if let record = state.issues[name], record.status == .available, !record.hasUpdate { return }
        _ = try startTask(name)
    }

    /// Continues every download that was under way when the library was last closed (after a
    /// crash or `suspendDownloads()`); returns their names. Join one with `download(_:)`.
    @discardableResult
    public func resumePendingDownloads() -> [String] {
        let names = pendingDownloads
        for name in names { _ = try? startTask(name) }
        return names
    }

    /// Cancels an issue's download and waits until it has stopped. Its status goes back to none;
    /// the partial file is kept, so the next download continues it.
    public func cancelDownload(_ name: String) async {
        guard let task = running[name] else { return }
        task.cancel()
        _ = await task.value
    }

    /// Stops every transfer but keeps them pending, as if the app were quitting: a later
    /// `resumePendingDownloads()` (in this or a new process) continues them.
    public func suspendDownloads() async {
        let tasks = running
        suspending.formUnion(tasks.keys)
        for task in tasks.values { task.cancel() }
        for task in tasks.values { _ = await task.value }
    }

    /// The running download of `name`, or a new one.
    private func startTask(_ name: String) throws(LibraryError) -> Task<Result<Issue, LibraryError>, Never> {
        if let task = running[name] { return task }
        try checkOpen()
        guard var record = state.issues[name] else { throw .unknownIssue(name: name) }
        let part = layout.part(of: name, scale: state.scale)
        let onDisk = FileStatus.size(of: part) ?? 0
        try checkSpace(for: record, alreadyDownloaded: onDisk)
        // An update leaves the issue available: its installed version stays readable until the
        // new one is swapped in whole, and a crash leaves it as it was (the update is asked again).
        if record.status != .available {
            let progress = DownloadProgress(bytesReceived: onDisk, bytesExpected: record.contentSize.map(Int64.init))
            record.status = .downloading(progress)
            state.issues[name] = record
            try save()
            emit(.statusChanged(name: name, record.status))
        }
        let task = Task { await self.runDownload(name) }
        running[name] = task
        return task
    }

    /// Refuses a download whose remaining bytes plus its unpacked content do not fit.
    private func checkSpace(for record: IssueRecord, alreadyDownloaded: Int64) throws(LibraryError) {
        guard let size = record.contentSize.map(Int64.init),
            let available = configuration.availableCapacity(folder)
        else { return }
        // Unpacked size is unknown before the download; bundles are stored, not deflated,
        // so the bundle's size is a fair estimate of it.
        let required = max(0, size - alreadyDownloaded) + size
        if available < required {
            throw .insufficientSpace(name: record.name, path: folder.path, required: required, available: available)
        }
    }

    private func runDownload(_ name: String) async -> Result<Issue, LibraryError> {
        let result: Result<Issue, LibraryError>
        if await slots.acquire() {
            result = await transferAndInstall(name)
            await slots.release()
        } else {
            result = .failure(.cancelled(name: name))
        }
        running[name] = nil
        progressHandlers[name] = nil
        let suspended = suspending.remove(name) != nil
        switch result {
        case .success(let issue):
            emit(.statusChanged(name: name, issue.status))
        case .failure(let error):
            log("download of \(name) ended: \(error)")
            if suspended, error == .cancelled(name: name) { break }
            if var record = state.issues[name], case .downloading = record.status {
                record.status = .none
                state.issues[name] = record
                try? save()
            }
            emit(.downloadFailed(name: name, error))
            // A failed update leaves the installed version available.
            emit(.statusChanged(name: name, state.issues[name]?.status ?? .none))
        }
        return result
    }

    private func transferAndInstall(_ name: String) async -> Result<Issue, LibraryError> {
        guard let record = state.issues[name] else { return .failure(.unknownIssue(name: name)) }
        let part = layout.part(of: name, scale: state.scale)
        // Progress comes from the transfer's thread; one stream carries it to the actor in the
        // order it happened (a task per report could deliver an older value after a newer one).
        // Under a slow consumer the oldest values are dropped, never the newest.
        let (reports, reporter) = AsyncStream.makeStream(of: DownloadProgress.self, bufferingPolicy: .bufferingNewest(64))
        let forwarding = Task { for await progress in reports { self.recordProgress(name, progress) } }
        var fullReason = FullDownloadReason.notInstalled
        if canUpdateByRanges(record) {
            switch await updateByRanges(name, progress: { reporter.yield($0) }) {
            case .done(let issue, let result):
                reporter.finish()
                await forwarding.value
                updateResults[name] = result
                emit(.updated(name: name, result))
                return .success(issue)
            case .failed(let error):
                reporter.finish()
                await forwarding.value
                return .failure(error)
            case .fallBack(let reason):
                log("\(name): downloading the whole bundle: \(reason)")
                fullReason = reason
            }
        }
        let transferred = await transfer(record, into: part) { reporter.yield($0) }
        // Every report is delivered before the download ends either way.
        reporter.finish()
        await forwarding.value
        switch transferred {
        case .failure(let error): return .failure(error)
        case .success(let source):
            // An index that lied about an entry is not kept: a later update would trust its hashes.
            var distrusted = false
            if case .indexMismatch = fullReason { distrusted = true }
            let installed = await install(name, from: part, source: source, keepIndex: !distrusted)
            if case .success = installed, record.hasUpdate {
                updateResults[name] = .full(fullReason)
                emit(.updated(name: name, .full(fullReason)))
            }
            return installed
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
        var transfer = download(source, into: part)
        var attempt = 0
        while true {
            attempt += 1
            if Task.isCancelled { return .failure(.cancelled(name: name)) }
            log("GET \(url.absoluteString) attempt \(attempt), \(FileStatus.size(of: part) ?? 0) bytes on disk")
            do {
                let outcome = try await transfer.run { received, expected in
                    progress(DownloadProgress(bytesReceived: received, bytesExpected: expected))
                }
                log("\(name): \(outcome.bytesTransferred) bytes transferred\(outcome.restarted ? " (restarted from zero)" : "")")
                return .success(source)
            } catch {
                if error == .cancelled || Task.isCancelled { return .failure(.cancelled(name: name)) }
                if NormalScaleFallback.isMissing(error), let fallen = fallBackToNormal(name, from: source) {
                    log("\(name): \(url.absoluteString) answered \(error); the entry has no retina keys: using \(fallen.url.absoluteString)")
                    PartMetadata.discard(part: part)
                    source = fallen
                    url = source.url
                    transfer = download(source, into: part)
                    attempt = 0
                    continue
                }
                if error.isTransient, attempt < configuration.maxAttempts {
                    let delay = configuration.retryDelay * pow(2, Double(attempt - 1))
                    log("\(name): \(error), retrying in \(delay) s")
                    try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
                    continue
                }
                if error.discardsPartialFile { PartMetadata.discard(part: part) }
                return .failure(Self.libraryError(error, name: name, url: url))
            }
        }
    }

    private func download(_ source: BundleSource, into part: URL) -> ResumableDownload {
        ResumableDownload(
            url: source.url, part: part, limit: source.size.map(Int64.init) ?? configuration.maxUnstatedBundleBytes,
            limits: configuration.downloadLimits, allowsCellularAccess: configuration.allowsCellularAccess,
            transport: configuration.transport)
    }

    /// After the `@2x` bundle answered 404 or 410: the normal bundle, when the entry has no
    /// retina keys and `source` was the `@2x` one; remembered (saved) so that a resume after a
    /// relaunch continues the normal bundle.
    private func fallBackToNormal(_ name: String, from source: BundleSource) -> BundleSource? {
        guard var record = state.issues[name], record.fallback != nil, source.url == record.remoteContentURL,
            source.scale == .retina
        else { return nil }
        record.missingRetinaContentURL = record.remoteContentURL
        state.issues[name] = record
        try? save()
        return record.bundleSource(scale: state.scale)
    }

    private static func libraryError(_ failure: TransferFailure, name: String, url: URL) -> LibraryError {
        switch failure {
        case .httpStatus(let status): .downloadHTTPStatus(name: name, url: url.absoluteString, status: status)
        case .stalled: .downloadStalled(name: name, url: url.absoluteString)
        case .tooLarge(let limit): .downloadTooLarge(name: name, url: url.absoluteString, limit: limit)
        case .unsupportedURL(let reason): .unsupportedURL(url: url.absoluteString, reason: reason)
        case .cancelled: .cancelled(name: name)
        case .file(let error) where error.isNoSpace: .diskFull(path: error.path, reason: error.reason)
        case .file(let error): .fileSystem(path: error.path, reason: error.reason)
        case .network, .badResponse, .rangeNotSatisfiable, .timedOut, .rejected, .cancelledBySystem:
            .downloadFailed(name: name, url: url.absoluteString, reason: failure.description)
        }
    }

    /// Verifies the complete `.part` file and unpacks it into the issue's content folder.
    private func install(
        _ name: String, from part: URL, source: BundleSource, keepIndex: Bool
    ) async -> Result<Issue, LibraryError> {
        guard state.issues[name] != nil else { return .failure(.unknownIssue(name: name)) }
        let index = keepIndex ? await indexForInstall(name, source: source) : nil
        let installer = Installer(
            name: name, part: part, layout: layout, limits: configuration.extractionLimits, hasher: configuration.hasher,
            unpacker: configuration.unpacker, index: index)
        // Hashing and unpacking a bundle take seconds: on a thread of their own, not the actor's
        // or the cooperative pool's.
        let installation = await BlockingWork.run {
            installer.install(expectedSize: source.size, expectedSHA256: source.sha256)
        }
        PartMetadata.discard(part: part)
        let current: IssueRecord
        switch installation {
        case .failure(let error): return .failure(error)
        case .success(let sha256):
            switch await commitStaged(name, sha256: sha256, source: source) {
            case .failure(let error): return .failure(error)
            case .success(let record): current = record
            }
        }
        do {
            _ = try applyStoragePolicy(protecting: [name])
        } catch {
            return .failure(error)
        }
        log("\(name) is available")
        return .success(current.issue(in: layout))
    }

    /// The verified index of the bundle being installed, kept with its content so that a later
    /// update can go by ranges; nil when the catalog gives none or it is unusable (the install
    /// goes on: only a later update is then a whole download).
    private func indexForInstall(_ name: String, source: BundleSource) async -> BundleIndex? {
        guard let record = state.issues[name], source.url == record.remoteContentURL, let url = record.contentIndexURL,
            let size = record.contentIndexSize, let sha256 = record.contentIndexSHA256
        else { return nil }
        let fetch = IndexFetch(
            url: url, size: size, sha256: sha256, bundleSize: source.size, bundleSHA256: source.sha256,
            limits: configuration.indexLimits, transferLimits: configuration.requestLimits,
            allowsCellularAccess: configuration.allowsCellularAccess, transport: configuration.transport)
        switch await fetch.run() {
        case .success(let index): return index
        case .failure(let reason):
            log("\(name): the index is not kept: \(reason)")
            return nil
        }
    }

    func recordProgress(_ name: String, _ progress: DownloadProgress) {
        guard running[name] != nil, var record = state.issues[name] else { return }
        if case .downloading = record.status {
            record.status = .downloading(progress)
            state.issues[name] = record
        } else if record.status != .available {
            return
        }
        emit(.progress(name: name, progress))
        for handler in progressHandlers[name] ?? [] { handler(progress) }
    }
}
