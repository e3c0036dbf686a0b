import Foundation
import NewsstandCore
import NewsstandReader

/// An engine that does what the test says, when it says: it holds the jobs it was given, and
/// finishes, fails or forgets them on command, as an OS transfer service may (duplicate and
/// stale events, a 404's body delivered as a finished file, a job lost with its process). Its
/// finished files are copies of the bundles nginx serves, deleted as soon as `finished` returns,
/// as URLSession deletes them.
final class ScriptedEngine: TransferEngine, @unchecked Sendable {
    let kind = TransferEngineKind.background
    private let state = Locked<(sink: (any TransferEventSink)?, jobs: [TransferID: TransferJob], started: Int)>((nil, [:], 0))
    let scratch: URL

    init(scratch: URL) { self.scratch = scratch }

    func attach(_ sink: any TransferEventSink) { state.withLock { $0.sink = sink } }
    func start(_ job: TransferJob) async throws(TransferFailure) {
        state.withLock {
            $0.jobs[job.id] = job
            $0.started += 1
        }
    }
    func cancel(_ id: TransferID, keepingData: Bool) async { _ = state.withLock { $0.jobs.removeValue(forKey: id) } }
    func report() async throws(TransferFailure) -> [TransferID: TransferReport] {
        let running = TransferReport.running(DownloadProgress(bytesReceived: 0, bytesExpected: nil))
        let listed = state.withLock { $0.jobs.mapValues { _ in running } }
        reports.withLock { $0 += 1 }
        return listed
    }
    /// How many reports the library was given (counted once each is made).
    let reports = Locked(0)

    var jobs: [TransferJob] { state.withLock { Array($0.jobs.values) }.sorted { "\($0.id)" < "\($1.id)" } }
    var startCount: Int { state.withLock { $0.started } }

    /// Delivers `id`'s body (the file under `root` its URL names, or `body` instead) as finished
    /// with `status`, then deletes the file; keeps the job when `keep` (a duplicate follows).
    func finish(_ id: TransferID, from root: URL, status: Int = 200, body: Data? = nil, keep: Bool = false) {
        guard
            let (sink, job) = state.withLock({ held -> ((any TransferEventSink)?, TransferJob?) in
                (held.sink, keep ? held.jobs[id] : held.jobs.removeValue(forKey: id))
            }) as? ((any TransferEventSink), TransferJob)
        else { return }
        let file = scratch.appendingPathComponent("CFNetworkDownload_\(UUID().uuidString).tmp")
        let data = body ?? (try? Data(contentsOf: root.appendingPathComponent(String(job.url.path.dropFirst()))))
        try? data?.write(to: file)
        sink.finished(id, status: status, file: file)
        try? FileManager.default.removeItem(at: file)
    }

    /// Delivers a finished file for a transfer the library never gave (a stale generation).
    func finishStale(_ id: TransferID, from root: URL, url: URL) {
        guard let sink = state.withLock({ $0.sink }) else { return }
        let file = scratch.appendingPathComponent("stale-\(UUID().uuidString).tmp")
        try? Data(contentsOf: root.appendingPathComponent(String(url.path.dropFirst()))).write(to: file)
        sink.finished(id, status: 200, file: file)
        try? FileManager.default.removeItem(at: file)
    }

    /// Delivers `id`'s body as `bed` serves it at the job's URL (or `body`), as `finish(_:from:)`.
    func finish(_ id: TransferID, in bed: ScriptedBed, status: Int = 200, body: Data? = nil, keep: Bool = false) {
        let served = jobs.first { $0.id == id }.flatMap { try? bed.served(String($0.url.path.dropFirst())) }
        finish(id, from: scratch, status: status, body: body ?? served ?? Data(), keep: keep)
    }

    /// Delivers `body` as the finished file of a transfer the library never gave.
    func finishStale(_ id: TransferID, body: Data) {
        guard let sink = state.withLock({ $0.sink }) else { return }
        let file = scratch.appendingPathComponent("stale-\(UUID().uuidString).tmp")
        try? body.write(to: file)
        sink.finished(id, status: 200, file: file)
        try? FileManager.default.removeItem(at: file)
    }

    /// Fails `id` with `failure` (by default a network error, resumable: the library starts it again).
    func fail(_ id: TransferID, with failure: TransferFailure = .network(code: 7, reason: "connection reset")) {
        guard
            let sink = state.withLock({ held -> (any TransferEventSink)? in
                held.jobs[id] = nil
                return held.sink
            })
        else { return }
        sink.failed(id, failure, resumeData: nil)
    }

    /// Reports `id`'s bytes so far.
    func progress(_ id: TransferID, _ progress: DownloadProgress) {
        state.withLock { $0.sink }?.progressed(id, progress)
    }

    /// Forgets every job, as a force-quit or a lost process does.
    func forgetAll() { state.withLock { $0.jobs = [:] } }

    /// Forgets `id` without a word: lost, or finished with its event not yet delivered.
    func forget(_ id: TransferID) { _ = state.withLock { $0.jobs.removeValue(forKey: id) } }

    /// The relaunch's "delivered all events".
    func deliverAll() { state.withLock { $0.sink }?.deliveredAllEvents() }

    /// "Delivered all events", returning once the library recorded every event before it.
    func deliverAllAndWait() async {
        guard let sink = state.withLock({ $0.sink }) else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            sink.deliveredAllEvents { done.resume() }
        }
    }
}
