import Foundation
import NewsstandCore
import NewsstandReader

/// What `Aria2Engine` does, one call at a time on its lane: hands jobs to the daemon, stops
/// them, says what it holds, and, while a sink is attached, delivers what changed (`poll`).
/// Blocking throughout (RPC, files, processes).
final class Aria2Transfers: Sendable {
    let daemon: Aria2Daemon
    private let state = Locked(State())

    private struct State {
        var sink: (any TransferEventSink)?
        /// Keys whose last event (finished, failed, cancelled) this engine has delivered or seen.
        var ended: Set<TransferID> = []
        var progress: [TransferID: DownloadProgress] = [:]
        var deliveredAll = false
    }

    /// The status passed with every hand-over: aria2 completes a download only after a 2xx
    /// answer (200, or 206 for a resumed range) whose body it wrote whole; it does not report
    /// the status itself, and the file it hands over is the complete body of a successful answer.
    static let finishedStatus = 200

    init(daemon: Aria2Daemon) { self.daemon = daemon }

    func attach(_ sink: (any TransferEventSink)?) {
        state.withLock {
            $0.sink = sink
            $0.deliveredAll = false
        }
    }

    // MARK: The protocol's calls

    /// Hands `job` to the daemon (started if needed); a job it holds under the same key is kept.
    /// Earlier generations of the issue are stopped, and the newest one's bytes from the same
    /// URL carried over, so aria2 continues them with `Range`.
    func start(_ job: TransferJob) throws(Aria2Error) {
        let url = try Aria2Key.checkedURL(job.url)
        let source = try Aria2Key.checkedURL(job.catalogURL)
        // Under the daemon's lock: another process's engine finding it idle cannot stop it
        // between this look and the job's reaching it.
        try daemon.withClient(.always) { client throws(Aria2Error) in
            guard let client else { throw .didNotStart(seconds: daemon.configuration.startTimeout) }
            try start(job, url: url, source: source, client)
        }
    }

    private func start(_ job: TransferJob, url: String, source: String, _ client: Aria2Client) throws(Aria2Error) {
        let files = try openFiles()
        let id = job.id
        let gid = Aria2Key.gid(of: id)
        // The catalog's URL, not a paid issue's signed link: the bytes carry over to the next
        // generation, signed anew, and the link stays out of the file.
        let record = Aria2JobRecord(url: source, expectedSize: job.expectedSize)
        if let held = try client.status(of: gid), files.id(of: held) == id {
            if held.state.isUnfinished || held.state == .complete && files.dataSize(of: id) != nil {
                // Kept, with its record (without one it would be taken for a download dealt with).
                if files.record(of: id) != record {
                    try write(record, for: id, files)
                    try daemon.limitFileSize(for: files)
                }
                if held.state == .paused { try client.unpause(gid) }
                return
            }
            try client.removeDownloadResult(gid)
        }
        try write(record, for: id, files)
        try daemon.limitFileSize(for: files)
        try takeOver(from: id, source: source, client, files)
        try client.addUri(url, gid: gid, out: Aria2Key.fileName(of: id))
        state.withLock {
            $0.ended.remove(id)
            $0.progress[id] = nil
        }
    }

    /// Stops `id`; its bytes stay for a later generation when `keepingData`, else go.
    func cancel(_ id: TransferID, keepingData: Bool) {
        let client = try? daemon.client(.whenSessionHasWork)
        guard let files = try? openFiles() else { return }
        if let client { stop(Aria2Key.gid(of: id), of: id, client, files) }
        if keepingData, var record = files.record(of: id) {
            record.kept = true
            try? record.write(for: id, in: files.folder)
        } else {
            try? files.remove(id)
        }
        state.withLock {
            $0.ended.insert(id)
            $0.progress[id] = nil
        }
        _ = try? stopIfIdle()
    }

    /// What the engine holds, by key. A daemon that died with work left is started again.
    func report() throws(Aria2Error) -> [TransferID: TransferReport] {
        let client = try daemon.client(.whenSessionHasWork)
        let files = try openFiles()
        var reports: [TransferID: TransferReport] = [:]
        let survey = try Aria2Survey.take(client, files)
        for entry in survey.entries {
            switch entry.holding {
            case .running(let progress): reports[entry.id] = .running(progress)
            case .finished(let file): reports[entry.id] = .finished(file: file, status: Self.finishedStatus)
            case .failed(let failure, let resumable): reports[entry.id] = .failed(failure, resumable: resumable)
            case .oversized(let limit):
                discard(entry, client, files)
                reports[entry.id] = .failed(.tooLarge(limit: limit), resumable: false)
            case .spent: forget(entry, client, files, deletingFiles: true)
            case .leftover: forget(entry, client, files, deletingFiles: false)
            }
        }
        files.removeAbandonedRecordWrites()
        sweep(files, listed: survey.listedIDs)
        return reports
    }

    /// Stops the daemon when it runs nothing; whether none runs now.
    func stopIfIdle() throws(Aria2Error) -> Bool {
        let stopped = try daemon.stop { client throws(Aria2Error) in try !Aria2Survey.take(client, openFiles()).hasRunning }
        // Nothing writes now: what aria2 wrote last to a download dealt with goes too.
        if stopped, let files = try? openFiles() { sweep(files, listed: []) }
        return stopped
    }

    /// Removes the files of keys that have no record and that aria2 did not list (`listed`):
    /// `Aria2Files.unrecordedIDs`.
    private func sweep(_ files: Aria2Files, listed: Set<TransferID>) {
        for id in files.unrecordedIDs() where !listed.contains(id) { try? files.remove(id) }
    }

    // MARK: Polling

    /// Delivers what changed to the attached sink: progress, hand-overs (the file exists only
    /// during `finished`: what the sink leaves is deleted), failures; then, the first time,
    /// `deliveredAllEvents`. Stops the daemon when it has nothing left to run.
    func poll() {
        // A round that fails (the daemon does not answer) delivers nothing; the next one tries again.
        guard let sink = state.withLock({ $0.sink }), let files = try? openFiles() else { return }
        let client: Aria2Client?
        do { client = try daemon.client(.whenSessionHasWork) } catch { return }
        guard let survey = try? Aria2Survey.take(client, files) else { return }
        for entry in survey.entries {
            let id = entry.id
            switch entry.holding {
            case .running(let progress):
                let changed = state.withLock { $0.progress.updateValue(progress, forKey: id) != progress }
                if changed { sink.progressed(id, progress) }
            case .finished(let file):
                sink.finished(id, status: Self.finishedStatus, file: file)
                forget(entry, client, files, deletingFiles: true)
            case .failed(let failure, _):
                if state.withLock({ $0.ended.insert(id).inserted }) { sink.failed(id, failure, resumeData: nil) }
                forget(entry, client, files, deletingFiles: failure.discardsPartialFile)
            case .oversized(let limit):
                discard(entry, client, files)
                if state.withLock({ $0.ended.insert(id).inserted }) { sink.failed(id, .tooLarge(limit: limit), resumeData: nil) }
            case .spent: forget(entry, client, files, deletingFiles: true)
            case .leftover: forget(entry, client, files, deletingFiles: false)
            }
        }
        sweep(files, listed: survey.listedIDs)
        let first = state.withLock { state -> Bool in
            defer { state.deliveredAll = true }
            return !state.deliveredAll
        }
        if first { sink.deliveredAllEvents() }
        // Asked again under the daemon's lock: a job another process hands over meanwhile keeps it.
        if client != nil, !survey.hasRunning { _ = try? stopIfIdle() }
    }

    // MARK: Helpers

    private func write(_ record: Aria2JobRecord, for id: TransferID, _ files: Aria2Files) throws(Aria2Error) {
        do throws(FileSystemError) { try record.write(for: id, in: files.folder) } catch { throw .folder(error) }
    }

    private func openFiles() throws(Aria2Error) -> Aria2Files {
        let engineFolder = try daemon.openFolder()
        do throws(FileSystemError) { return try Aria2Files.open(in: engineFolder) } catch { throw .folder(error) }
    }

    /// Stops every earlier generation of `id`'s issue that aria2 still runs, carries the newest
    /// one's bytes from the same catalog URL (`source`) over to `id`, and removes the rest.
    private func takeOver(from id: TransferID, source: String, _ client: Aria2Client, _ files: Aria2Files)
        throws(Aria2Error)
    {
        let isEarlier = { (other: TransferID) in other.name == id.name && other.generation < id.generation }
        for status in try client.downloads() {
            guard let other = files.id(of: status), isEarlier(other) else { continue }
            stop(status.gid, of: other, client, files)
        }
        let earlier = files.recordedIDs().filter(isEarlier).sorted { $0.generation > $1.generation }
        let source =
            files.dataSize(of: id) == nil
            ? earlier.first { files.record(of: $0)?.url == source && files.dataSize(of: $0) != nil } : nil
        for other in earlier {
            if other == source, (try? files.move(other, to: id)) != nil { continue }
            try? files.remove(other)
        }
    }

    /// Stops a download aria2 runs and forgets its result.
    private func stop(_ gid: String, of id: TransferID, _ client: Aria2Client, _ files: Aria2Files) {
        guard let held = try? client.status(of: gid), files.id(of: held) == id else { return }
        if held.state.isUnfinished, (try? client.forceRemove(gid)) == true {
            let deadline = Date().addingTimeInterval(daemon.configuration.rpcTimeout)
            while Date() < deadline, let now = try? client.status(of: gid), now.state.isUnfinished { usleep(20_000) }
        }
        _ = try? client.removeDownloadResult(gid)
    }

    /// Stops a download and deletes its files.
    private func discard(_ entry: Aria2Survey.Entry, _ client: Aria2Client?, _ files: Aria2Files) {
        if let client { stop(Aria2Key.gid(of: entry.id), of: entry.id, client, files) }
        try? files.remove(entry.id)
    }

    /// Stops a download dealt with (if aria2 still runs it) and removes its result, and its
    /// files when asked.
    private func forget(_ entry: Aria2Survey.Entry, _ client: Aria2Client?, _ files: Aria2Files, deletingFiles: Bool) {
        if entry.isListed, let client { stop(Aria2Key.gid(of: entry.id), of: entry.id, client, files) }
        if deletingFiles { try? files.remove(entry.id) }
    }
}
