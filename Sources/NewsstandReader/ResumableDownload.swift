import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt at downloading a bundle into its `.part` file, continuing the bytes already
/// there with `Range` + `If-Range` (Foundation on Linux produces no resume data).
struct ResumableDownload: Sendable {
    /// How an attempt that got the whole file went.
    struct Outcome: Sendable, Equatable {
        /// The complete file's size.
        var size: Int64
        /// Bytes that came over the network this time.
        var bytesTransferred: Int64
        /// Whether bytes from an earlier attempt were thrown away (a 200 answered the range).
        var restarted: Bool
    }

    let url: URL
    let part: URL
    let stallTimeout: TimeInterval
    let allowsCellularAccess: Bool

    /// Downloads the rest of the file. `progress` gets (bytes on disk, bytes expected).
    func run(progress: @escaping @Sendable (Int64, Int64?) -> Void) async throws(TransferFailure) -> Outcome {
        var offset: Int64 = 0
        var validator: String?
        if let metadata = PartMetadata.load(for: part), metadata.url == url, metadata.validator != nil,
            let size = AtomicFile.size(of: part)
        {
            if let expected = metadata.expectedLength, size == expected {
                return Outcome(size: size, bytesTransferred: 0, restarted: false)
            }
            if size < metadata.expectedLength ?? .max {
                offset = size
                validator = metadata.validator
            }
        }
        if offset == 0 { PartMetadata.discard(part: part) }
        if Task.isCancelled { throw .cancelled }
        #if canImport(CCurl)
            return try await runOnCurl(offset: offset, validator: validator, progress: progress)
        #else
            return try await runOnURLSession(offset: offset, validator: validator, progress: progress)
        #endif
    }

    #if canImport(CCurl)
        /// Linux: libcurl directly, on a thread of its own (its calls block).
        private func runOnCurl(
            offset: Int64, validator: String?, progress: @escaping @Sendable (Int64, Int64?) -> Void
        ) async throws(TransferFailure) -> Outcome {
            let transfer = CurlTransfer(
                url: url, part: part, offset: offset, validator: validator, stallTimeout: stallTimeout, progress: progress)
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    Thread.detachNewThread { continuation.resume(returning: transfer.run()) }
                }
            } onCancel: {
                transfer.cancel()
            }
            return try result.get()
        }
    #endif

    /// Apple platforms: a URLSession data task streaming into the `.part` file.
    private func runOnURLSession(
        offset: Int64, validator: String?, progress: @escaping @Sendable (Int64, Int64?) -> Void
    ) async throws(TransferFailure) -> Outcome {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: stallTimeout)
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if offset > 0, let validator {
            request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
        }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.timeoutIntervalForRequest = stallTimeout
        configuration.allowsCellularAccess = allowsCellularAccess
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1

        let cancellation = TaskCanceller()
        let result: Result<Outcome, TransferFailure> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let delegate = TransferDelegate(url: url, part: part, offset: offset, progress: progress) {
                    continuation.resume(returning: $0)
                }
                let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
                let task = session.dataTask(with: request)
                delegate.watch(task, timeout: stallTimeout)
                task.resume()
                cancellation.attach(task)
                session.finishTasksAndInvalidate()
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}

/// Forwards a Swift task's cancellation to a URLSession task that may not exist yet.
final class TaskCanceller: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var isCancelled = false

    func attach(_ task: URLSessionTask) {
        let cancelNow = lock.withLock {
            self.task = task
            return isCancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            isCancelled = true
            return self.task
        }
        task?.cancel()
    }
}
