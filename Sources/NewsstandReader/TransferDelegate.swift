import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URLSession delegate of one download attempt: checks the response (206 continues the
/// `.part` file, 200 starts it again), streams the body into the file and reports progress.
/// Callbacks come on the session's serial queue; the lock guards against the cancel path.
final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Completion = @Sendable (Result<ResumableDownload.Outcome, TransferFailure>) -> Void

    private let lock = NSLock()
    private let url: URL
    private let part: URL
    private let offset: Int64
    private let progress: @Sendable (Int64, Int64?) -> Void
    private var completion: Completion?
    private var handle: FileHandle?
    private var fileSize: Int64 = 0
    private var expected: Int64?
    private var received: Int64 = 0
    private var restarted = false
    private var failure: TransferFailure?
    private var lastReported: Int64 = 0
    private var lastActivity = DispatchTime.now()
    private var watchdog: DispatchSourceTimer?

    init(
        url: URL, part: URL, offset: Int64, progress: @escaping @Sendable (Int64, Int64?) -> Void,
        completion: @escaping Completion
    ) {
        self.url = url
        self.part = part
        self.offset = offset
        self.progress = progress
        self.completion = completion
    }

    /// Cuts the task when nothing arrives for `timeout` seconds. URLSession's own request
    /// timeout is not relied on: on Linux it does not fire while waiting for the response.
    func watch(_ task: URLSessionTask, timeout: TimeInterval) {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        let interval = max(0.05, min(1, timeout / 4))
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self, weak task] in
            guard let self else { return }
            let stalled = self.lock.withLock {
                guard self.completion != nil, self.failure == nil,
                    DispatchTime.now().uptimeNanoseconds - self.lastActivity.uptimeNanoseconds > UInt64(timeout * 1e9)
                else { return false }
                self.failure = .stalled
                return true
            }
            if stalled { task?.cancel() }
        }
        lock.withLock { watchdog = timer }
        timer.resume()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted = lock.withLock {
            lastActivity = .now()
            return accept(response)
        }
        completionHandler(accepted ? .allow : .cancel)
    }

    /// Opens the `.part` file for the response, or records why it cannot be used.
    private func accept(_ response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else {
            failure = .badResponse("not an HTTP response")
            return false
        }
        do {
            let file = try PartFile.open(for: http, url: url, part: part, offset: offset)
            handle = file.handle
            fileSize = file.startSize
            expected = file.expected
            restarted = file.restarted
        } catch {
            failure = error
            return false
        }
        lastReported = fileSize
        return true
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let report: (Int64, Int64?)? = lock.withLock {
            guard let handle, failure == nil else { return nil }
            do {
                try handle.write(contentsOf: data)
            } catch {
                failure = .file(path: part.path, reason: "\(error)")
                dataTask.cancel()
                return nil
            }
            fileSize += Int64(data.count)
            received += Int64(data.count)
            lastActivity = .now()
            let step = max(64 << 10, (expected ?? 0) / 200)
            guard fileSize - lastReported >= step else { return nil }
            lastReported = fileSize
            return (fileSize, expected)
        }
        if let report { progress(report.0, report.1) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (completion, result): (Completion?, Result<ResumableDownload.Outcome, TransferFailure>) = lock.withLock {
            try? handle?.close()
            handle = nil
            watchdog?.cancel()
            watchdog = nil
            let result = outcome(error)
            let completion = self.completion
            self.completion = nil
            return (completion, result)
        }
        if case .success = result, fileSize != lastReported { progress(fileSize, expected) }
        completion?(result)
    }

    private func outcome(_ error: Error?) -> Result<ResumableDownload.Outcome, TransferFailure> {
        if let failure { return .failure(failure) }
        if let error {
            let code = (error as? URLError)?.code.rawValue ?? (error as NSError).code
            switch code {
            case URLError.cancelled.rawValue: return .failure(.cancelled)
            case URLError.timedOut.rawValue: return .failure(.stalled)
            default: return .failure(.network(code: code, reason: error.localizedDescription))
            }
        }
        if let expected, fileSize != expected {
            return .failure(.network(code: 0, reason: "connection closed after \(fileSize) of \(expected) bytes"))
        }
        return .success(.init(size: fileSize, bytesTransferred: received, restarted: restarted))
    }
}

/// `Content-Range: bytes <start>-<end>/<total>`.
struct ContentRange: Equatable {
    var start: Int64
    var end: Int64
    var total: Int64?

    init?(_ header: String) {
        let value = header.trimmingCharacters(in: .whitespaces)
        guard value.hasPrefix("bytes ") else { return nil }
        let parts = value.dropFirst(6).split(separator: "/", maxSplits: 1)
        let bounds = parts.first?.split(separator: "-", maxSplits: 1) ?? []
        guard parts.count == 2, bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]) else {
            return nil
        }
        self.start = start
        self.end = end
        total = Int64(parts[1])
    }
}
