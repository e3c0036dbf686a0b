import Foundation
import NewsstandCore

/// Transfers in this process, on the library's `HTTPTransport`: each bundle streamed into its
/// `.part` file, continued with `Range` + `If-Range` after a failure (Foundation on Linux gives
/// no resume data), transient failures retried with backoff, at most `maxConcurrent` at once
/// (the rest wait in its own queue, so that queued requests cannot time out before they send a
/// byte). Everything stops with the process; the part file is what a later start continues.
final class InProcessEngine: TransferEngine {
    /// What the engine needs from the library's configuration.
    struct Settings: Sendable {
        var transport: any HTTPTransport
        var limits: TransferLimits
        var maxAttempts: Int
        var retryDelay: TimeInterval
        var maxConcurrent: Int
        /// The most bytes a bundle may have when the job states no size.
        var maxUnstatedBytes: Int64
        var allowsCellularAccess: Bool
        var log: @Sendable (String) -> Void
    }

    let kind = TransferEngineKind.inProcess
    private let settings: Settings
    private let partFile: @Sendable (TransferID) -> URL
    private let slots: DownloadSlots
    private let state = Locked(EngineState())

    private struct EngineState {
        var sink: (any TransferEventSink)?
        var running: [TransferID: Running] = [:]
    }

    private struct Running {
        var task: Task<Void, Never>
        var progress: DownloadProgress
        var keepsData = true
    }

    /// An engine whose jobs write to `partFile(id)`.
    init(settings: Settings, partFile: @escaping @Sendable (TransferID) -> URL) {
        self.settings = settings
        self.partFile = partFile
        slots = DownloadSlots(limit: settings.maxConcurrent)
    }

    func attach(_ sink: any TransferEventSink) { state.withLock { $0.sink = sink } }

    func start(_ job: TransferJob) async throws(TransferFailure) {
        try HTTPRequest.checkScheme(of: job.url)
        state.withLock { engine in
            guard engine.running[job.id] == nil else { return }
            let progress = DownloadProgress(bytesReceived: 0, bytesExpected: job.expectedSize)
            let task = Task { await self.run(job) }
            engine.running[job.id] = Running(task: task, progress: progress)
        }
    }

    func cancel(_ id: TransferID, keepingData: Bool) async {
        let task: Task<Void, Never>? = state.withLock { engine in
            engine.running[id]?.keepsData = keepingData
            return engine.running[id]?.task
        }
        guard let task else {
            if !keepingData { PartMetadata.discard(part: partFile(id)) }
            return
        }
        task.cancel()
        await task.value
    }

    func report() async throws(TransferFailure) -> [TransferID: TransferReport] {
        state.withLock { engine in engine.running.mapValues { .running($0.progress) } }
    }

    /// Runs one job to its end: its slot, its attempts, its one final event.
    private func run(_ job: TransferJob) async {
        let part = partFile(job.id)
        let outcome: Result<Void, TransferFailure>
        if await slots.acquire() {
            outcome = await transfer(job, into: part)
            await slots.release()
        } else {
            outcome = .failure(.cancelled)
        }
        let (sink, keepsData) = state.withLock { engine in
            let keeps = engine.running[job.id]?.keepsData ?? true
            engine.running[job.id] = nil
            return (engine.sink, keeps)
        }
        switch outcome {
        case .success:
            sink?.finished(job.id, status: 200, file: part)
        case .failure(let failure):
            if !keepsData || failure.discardsPartialFile { PartMetadata.discard(part: part) }
            sink?.failed(job.id, failure, resumeData: nil)
        }
    }

    /// The attempts: each continues the part file; transient failures wait and go again.
    private func transfer(_ job: TransferJob, into part: URL) async -> Result<Void, TransferFailure> {
        let download = ResumableDownload(
            url: job.url, part: part, limit: job.expectedSize ?? settings.maxUnstatedBytes, limits: settings.limits,
            allowsCellularAccess: settings.allowsCellularAccess, transport: settings.transport)
        var attempt = 0
        while true {
            attempt += 1
            if Task.isCancelled { return .failure(.cancelled) }
            settings.log("GET \(Redacted.message(job.url.absoluteString)) attempt \(attempt), \(FileStatus.size(of: part) ?? 0) bytes on disk")
            do {
                let outcome = try await download.run { received, expected in
                    self.progressed(job.id, DownloadProgress(bytesReceived: received, bytesExpected: expected))
                }
                settings.log(
                    "\(job.id): \(outcome.bytesTransferred) bytes transferred\(outcome.restarted ? " (restarted from zero)" : "")")
                return .success(())
            } catch {
                if error == .cancelled || Task.isCancelled { return .failure(.cancelled) }
                guard error.isTransient, attempt < settings.maxAttempts else { return .failure(error) }
                let delay = settings.retryDelay * pow(2, Double(attempt - 1))
                settings.log("\(job.id): \(error), retrying in \(delay) s")
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            }
        }
    }

    private func progressed(_ id: TransferID, _ progress: DownloadProgress) {
        let sink = state.withLock { engine -> (any TransferEventSink)? in
            engine.running[id]?.progress = progress
            return engine.sink
        }
        sink?.progressed(id, progress)
    }
}
