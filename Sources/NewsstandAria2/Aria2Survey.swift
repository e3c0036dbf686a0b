import Foundation
import NewsstandReader

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
        /// Done with: its file was handed over (or never came), or aria2 brought it back after
        /// that. To be stopped, its result and files removed.
        case spent
        /// Cancelled: to be stopped and its result forgotten, its files kept.
        case leftover
    }

    struct Entry: Equatable {
        var id: TransferID
        var holding: Holding
        /// Whether aria2 lists it (its result can be removed).
        var isListed: Bool
    }

    var entries: [Entry]

    /// The keys aria2 listed.
    var listedIDs: Set<TransferID> { Set(entries.filter(\.isListed).map(\.id)) }

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
            entries.append(Entry(id: id, holding: holding(of: status, id, files.record(of: id), files), isListed: true))
        }
        // Not listed: finished before aria2 restarted, or gone. The bytes of an unfinished one
        // (a failure's, a cancelled one's) wait for the next generation. A record
        // without a file is spent only while no daemon runs: with one running, it may be a job
        // being handed over right now.
        for id in files.recordedIDs() where !listed.contains(id) {
            guard let record = files.record(of: id), !record.isKept else { continue }
            if files.isComplete(id, record) {
                entries.append(Entry(id: id, holding: .finished(files.url(of: id)), isListed: false))
            } else if client == nil, files.dataSize(of: id) == nil {
                entries.append(Entry(id: id, holding: .spent, isListed: false))
            }
        }
        return Aria2Survey(entries: entries)
    }

    private static func holding(of status: Aria2Status, _ id: TransferID, _ record: Aria2JobRecord?, _ files: Aria2Files)
        -> Holding
    {
        // A download without a record is one the engine has dealt with (handed over, failed,
        // discarded) that a daemon killed within a second of it brought back from its session:
        // it is stopped, never handed over again. One cancelled with its bytes kept stays stopped.
        guard let record else { return .spent }
        if record.isKept { return .leftover }
        let limit = record.expectedSize
        switch status.state {
        case .active, .waiting, .paused:
            if let limit, status.totalLength > limit || status.completedLength > limit { return .oversized(limit: limit) }
            return .running(
                DownloadProgress(bytesReceived: status.completedLength, bytesExpected: status.progress.bytesExpected ?? limit))
        case .complete:
            guard let size = files.dataSize(of: id) else { return .spent }
            if let limit, size > limit { return .oversized(limit: limit) }
            return .finished(files.url(of: id))
        case .error:
            // Stopped by the daemon's file-size limit (or failed once past the size anyway).
            if let limit, let size = files.dataSize(of: id), size > limit { return .oversized(limit: limit) }
            let (failure, resumable) = Aria2ErrorCode.failure(of: status, folder: files.path)
            return .failed(failure, resumable: resumable)
        case .removed:
            return .leftover
        }
    }
}
