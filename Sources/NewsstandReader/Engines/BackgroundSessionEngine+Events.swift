import Foundation
import NewsstandCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The sessions' callbacks, on each lane's serial delegate queue. Each reads the task's key
/// from its description; a task without one is not the library's and is left alone.
extension BackgroundSessionEngine {
    /// `didWriteData`: progress to the sink (about every 0.5 %, at least 64 KiB apart), or a
    /// body growing past the size the catalog states cut at once.
    func progressed(_ task: URLSessionDownloadTask, in slot: BackgroundSessionSlot, written: Int64, expected: Int64) {
        guard let id = TransferID(task.taskDescription ?? "") else { return }
        enum Step {
            case report(DownloadProgress, (any TransferEventSink)?)
            case cut(limit: Int64, offset: Int64)
        }
        let step = state.withLock { engine -> Step? in
            engine.wakes[slot.identifier, default: BackgroundSessionWake()].eventArrived()
            guard var live = engine.live(task, id: id, lane: slot.lane) else { return nil }
            let received = live.offset + written
            let total = expected > 0 ? live.offset + expected : live.job?.expectedSize
            let limit = live.limit(unstated: settings.maxUnstatedBytes)
            if received > limit || (total ?? 0) > limit {
                engine.tasks[id] = nil
                engine.settle(task)
                return .cut(limit: limit, offset: live.offset)
            }
            guard received - live.lastReported >= max(64 << 10, (total ?? 0) / 200) || received == total else { return nil }
            live.lastReported = received
            engine.tasks[id] = live
            return .report(DownloadProgress(bytesReceived: received, bytesExpected: total), engine.sink)
        }
        switch step {
        case .report(let progress, let sink)?:
            sink?.progressed(id, progress)
        case .cut(let limit, let offset)?:
            task.cancel()
            if offset > 0 { PartMetadata.discard(part: partFile(id)) }
            settings.log("background \(id): larger than \(limit) bytes, cut")
            state.withLock { $0.sink }?.failed(id, .tooLarge(limit: limit), resumeData: nil)
        case nil:
            break
        }
    }

    /// `didFinishDownloadingTo`: the file exists only while this runs (URLSession deletes it
    /// when it returns), so the sink gets it now, whole (`BackgroundSessionFinish` joins a
    /// continued part file), and takes it or refuses it before this returns. What is left at
    /// `location` afterwards is removed here: iOS would delete it, FoundationNetworking leaves
    /// it in the temporary folder, and the engine must not depend on which.
    func finished(_ task: URLSessionDownloadTask, in slot: BackgroundSessionSlot, location: URL) {
        guard let id = TransferID(task.taskDescription ?? "") else { return }
        // Never through a link: only a regular file still there.
        defer { try? OpenFolder.open(location.deletingLastPathComponent()).removeRegularFile(location.lastPathComponent) }
        let taken = state.withLock { engine -> (LiveTask, (any TransferEventSink)?)? in
            engine.wakes[slot.identifier, default: BackgroundSessionWake()].eventArrived()
            guard let live = engine.live(task, id: id, lane: slot.lane) else { return nil }
            // Its one event: the completion that follows says nothing more.
            engine.tasks[id] = nil
            engine.settle(task)
            return (live, engine.sink)
        }
        guard let (live, sink) = taken else { return }
        let head = HTTPHead(task.response)
        let part = partFile(id)
        let outcome = BackgroundSessionFinish.resolve(
            location, head: head, offset: live.offset, part: part, limit: live.limit(unstated: settings.maxUnstatedBytes))
        switch outcome {
        case .handOver(let file, let status):
            let joined = file == part ? ", joined to the \(live.offset) bytes of the part file" : ""
            settings.log("background \(id): finished, HTTP \(head.map { String($0.status) } ?? "?")\(joined)")
            sink?.finished(id, status: status, file: file)
            if file == part, FileStatus.kind(of: part, followingLinks: false) == nil { PartMetadata.discard(part: part) }
        case .fail(let failure):
            settings.log("background \(id): finished, refused: \(failure)")
            sink?.failed(id, failure, resumeData: nil)
        }
    }

    /// `didCompleteWithError`: a failure to the sink, with what the system left to resume from;
    /// nothing after a finished file (its event was the hand-off) or for a task the engine
    /// cancelled. A task made from resume data the system refused (no response, nothing new to
    /// resume from) is made again once without it.
    func completed(_ task: URLSessionTask, in slot: BackgroundSessionSlot, error: Error?) {
        guard let task = task as? URLSessionDownloadTask, let id = TransferID(task.taskDescription ?? "") else { return }
        enum Next {
            case fail(BackgroundSessionError, offset: Int64, (any TransferEventSink)?)
            case again(TransferJob, refused: TransferFailure)
        }
        let next = state.withLock { engine -> Next? in
            engine.wakes[slot.identifier, default: BackgroundSessionWake()].eventArrived()
            if engine.isSettled(task) { return nil }
            guard let live = engine.tasks[id] else {
                // A relaunch's failed task never heard of before (a finished one came through `finished`).
                guard let error else { return nil }
                engine.settle(task)
                let offset = BackgroundSessionRequest.offset(of: task.originalRequest)
                return .fail(BackgroundSessionError(error), offset: offset, engine.sink)
            }
            guard live.task === task else { return nil }
            engine.tasks[id] = nil
            engine.settle(task)
            guard let error else {
                return .fail(
                    BackgroundSessionError(failure: .badResponse("the download ended without a file")), offset: live.offset,
                    engine.sink)
            }
            let failure = BackgroundSessionError(error)
            if live.refused(failure, hadResponse: task.response != nil), var job = live.job {
                job.resumeData = nil
                engine.starting.insert(id)
                return .again(job, refused: failure.failure)
            }
            return .fail(failure, offset: live.offset, engine.sink)
        }
        switch next {
        case .fail(let failure, let offset, let sink)?:
            if offset > 0, failure.failure.discardsPartialFile { PartMetadata.discard(part: partFile(id)) }
            settings.log("background \(id): failed: \(failure.failure)\(failure.resumeData == nil ? "" : ", resume data kept")")
            sink?.failed(id, failure.failure, resumeData: failure.resumeData)
        case .again(let job, let refused)?:
            settings.log("background \(id): the resume data was refused (\(refused)), starting again")
            create(job, in: slot.lane, of: state.withLock { $0.sessions })
        case nil:
            break
        }
    }

    /// `urlSessionDidFinishEvents(forBackgroundURLSession:)`: once the sink has recorded what it
    /// got, the system's completion handler of this wake is called (or, not given yet, as soon as
    /// it is). Returns at once: the delegate queue is not held while the library records.
    func deliveredAllEvents(in slot: BackgroundSessionSlot) {
        let finish: @Sendable () -> Void = { [self] in
            callSystem(state.withLock { $0.wakes[slot.identifier, default: BackgroundSessionWake()].deliveredAllEvents() })
        }
        guard let sink = state.withLock({ $0.sink }) else { return finish() }
        sink.deliveredAllEvents(whenRecorded: finish)
    }

    /// A part file that is already whole: handed over as a finished transfer, no request made.
    func handOverWholePart(_ id: TransferID, in slot: BackgroundSessionSlot) {
        let sink = state.withLock { engine in
            engine.wakes[slot.identifier, default: BackgroundSessionWake()].eventArrived()
            return engine.sink
        }
        let part = partFile(id)
        sink?.finished(id, status: 200, file: part)
        if FileStatus.kind(of: part, followingLinks: false) == nil { PartMetadata.discard(part: part) }
        state.withLock { _ = $0.starting.remove(id) }
    }
}

/// What a background download task's error says: why it failed, and what URLSession left to
/// resume from. Read from the error's user info, which is the same on every platform
/// (FoundationNetworking never fills in the two keys, but reads them alike).
struct BackgroundSessionError: Equatable, Sendable {
    /// The failure the sink is told.
    var failure: TransferFailure
    /// `NSURLSessionDownloadTaskResumeData`: what a later `downloadTask(withResumeData:)` goes
    /// on from (a failed or system-cancelled transfer on Apple platforms; never on Linux).
    var resumeData: Data?
}

extension BackgroundSessionError {
    /// The meaning of `error`, a task's `didCompleteWithError`.
    init(_ error: Error) {
        let info = (error as NSError).userInfo
        resumeData = info[BackgroundSessionPlatform.resumeDataKey] as? Data
        // The system cancels with this reason (a force-quit above all); the library's own
        // cancel carries none.
        if let reason = (info[NSURLErrorBackgroundTaskCancelledReasonKey] as? NSNumber)?.intValue {
            failure = .cancelledBySystem(SystemCancelReason(reason))
        } else {
            failure = URLErrorClassification.failure(for: error)
        }
    }
}
