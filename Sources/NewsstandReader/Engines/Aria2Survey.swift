import Foundation

/// What the engine holds, key by key: aria2's lists (when the daemon runs) read together with
/// the files and records in its folder (which outlast the daemon: a finished download is no
/// longer listed once aria2 restarted). Only downloads whose file and GID name a key, and
/// files with a record, count; the rest is not the engine's.
struct Aria2Survey {
    /// One key's state.
    enum Holding: Equatable {
        /// aria2 works on it (or will: queued, paused).
        case running(DownloadProgress)
        /// The whole file is at this URL, not yet handed over.
        case finished(URL)
        /// aria2 gave up on it.
        case failed(TransferFailure, resumable: Bool)
        /// Its body grew past the size the catalog states: to be stopped.
        case oversized(limit: Int64)
        /// Done with: its file was handed over (or never came). aria2's result and the files
        /// left are to be removed.
        case spent
        /// A result aria2 keeps of a download cancelled: to be forgotten, its files kept.
        case leftover
    }

    struct Entry: Equatable {
        var id: TransferID
        var holding: Holding
        /// Whether aria2 lists it (its result can be removed).
        var isListed: Bool
    }

    var entries: [Entry]

    /// Whether aria2 still has work: anything running.
    var hasRunning: Bool {
        entries.contains { if case .running = $0.holding { true } else { false } }
    }

    /// Reads aria2's lists through `client` (none when the daemon is not running) and `files`.
    static func take(_ client: Aria2Client?, _ files: Aria2Files) throws(Aria2Error) -> Aria2Survey {
        var entries: [Entry] = []
        var listed = Set<TransferID>()
        for status in try client?.downloads() ?? [] {
            guard let id = files.id(of: status), listed.insert(id).inserted else { continue }
            let record = files.record(of: id)
            entries.append(Entry(id: id, holding: holding(of: status, id, record, files), isListed: true))
        }
        // Not listed: finished before aria2 restarted, or gone. The bytes of an unfinished one
        // (a failure's, a cancelled one's) wait for the next generation.
        for id in files.recordedIDs() where !listed.contains(id) {
            guard let record = files.record(of: id), !record.isKept else { continue }
            if files.isComplete(id, record) {
                entries.append(Entry(id: id, holding: .finished(files.url(of: id)), isListed: false))
            } else if files.dataSize(of: id) == nil {
                entries.append(Entry(id: id, holding: .spent, isListed: false))
            }
        }
        return Aria2Survey(entries: entries)
    }

    private static func holding(of status: Aria2Status, _ id: TransferID, _ record: Aria2JobRecord?, _ files: Aria2Files)
        -> Holding
    {
        let limit = record?.expectedSize
        switch status.state {
        case .active, .waiting, .paused:
            if let limit, status.totalLength > limit || status.completedLength > limit { return .oversized(limit: limit) }
            return .running(
                DownloadProgress(bytesReceived: status.completedLength, bytesExpected: status.progress.bytesExpected ?? limit))
        case .complete:
            if record?.isKept == true { return .leftover }
            guard let size = files.dataSize(of: id) else { return .spent }
            if let limit, size > limit { return .oversized(limit: limit) }
            return .finished(files.url(of: id))
        case .error:
            let (failure, resumable) = Aria2ErrorCode.failure(of: status, folder: files.path)
            return .failed(failure, resumable: resumable)
        case .removed:
            return .leftover
        }
    }
}
