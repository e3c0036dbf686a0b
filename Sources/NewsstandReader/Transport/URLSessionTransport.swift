import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// URLSession data tasks: the default on Apple platforms. It builds on Linux too, where the
/// download tests run it beside libcurl's, so the Apple path cannot rot unseen.
public struct URLSessionTransport: HTTPTransport {
    /// A transport on a URLSession of its own per request.
    public init() {}

    /// Runs `request` on a session of its own; cancelling the calling task cancels the data task.
    public func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure) {
        var urlRequest = URLRequest(
            url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.limits.stallTimeout)
        if !request.acceptsCompression { urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding") }
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        // The library does its own conditional GET; a URL cache would answer 304s itself.
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = request.limits.stallTimeout
        if let deadline = request.limits.deadline { configuration.timeoutIntervalForResource = deadline + 2 }
        URLSessionPolicy.apply(request.policy, to: configuration, &urlRequest)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1

        let canceller = TaskCanceller()
        let failure: TransferFailure? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let delegate = URLSessionRequest(request, sink: sink, queue: queue) { continuation.resume(returning: $0) }
                let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
                let task = session.dataTask(with: urlRequest)
                delegate.watch(task, in: session, every: max(0.05, min(1, request.limits.stallTimeout / 4)))
                task.resume()
                canceller.attach(task)
                session.finishTasksAndInvalidate()
            }
        } onCancel: {
            canceller.cancel()
        }
        if let failure { throw failure }
    }
}

/// One request on a URLSession data task (Apple platforms; it builds and is tested on Linux
/// too). The session's serial delegate queue feeds the sink; a timer applies the deadline and
/// the minimum rate, because URLSession has no rate limit and, on Linux, its request timeout
/// does not fire while waiting for the response. The lock guards what the timer shares.
///
/// Once the request has failed (a limit, or the sink refused), the timer cancels the task again
/// on every tick, and if the task has still not completed `abandonAfter` seconds later, ends
/// the request itself on the delegate queue: FoundationNetworking reads a cancelled task's body
/// on and may not complete the task while it does, so an endless body kept a request open for
/// good (seen on a loaded 2-core CI machine). On Apple platforms the first cancel ends it.
final class URLSessionRequest: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    fileprivate typealias Completion = @Sendable (TransferFailure?) -> Void

    /// How long a failed request waits for its task to complete before it ends without it.
    static let abandonAfter: TimeInterval = 2

    private let sink: any ResponseSink
    private let queue: OperationQueue
    private let lock = NSLock()
    private var completion: Completion?
    private var watch: TransferWatch
    private var received: Int64 = 0
    private var failure: TransferFailure?
    /// When `failure` was set (the monotonic clock): the start of the wait for the task's end.
    private var failedAt: DispatchTime?
    /// Set once the timer has stopped waiting for a failed task.
    private var isAbandoned = false
    private var timer: DispatchSourceTimer?
    /// Set while the task waits for a network (`waitsForConnectivity`): the rate rule waits too.
    private var isWaiting = false

    fileprivate init(_ request: HTTPRequest, sink: any ResponseSink, queue: OperationQueue, completion: @escaping Completion) {
        self.sink = sink
        self.queue = queue
        self.completion = completion
        watch = TransferWatch(request.limits)
    }

    /// What a tick of the timer does.
    private enum TickAction {
        case nothing, cancel, abandon
    }

    fileprivate func watch(_ task: URLSessionTask, in session: URLSession, every interval: TimeInterval) {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self, weak task, weak session] in
            guard let self else { return }
            switch self.tick() {
            case .nothing:
                break
            case .cancel:
                task?.cancel()
            case .abandon:
                session?.invalidateAndCancel()
                self.queue.addOperation { self.complete(error: nil) }
            }
        }
        lock.withLock { self.timer = timer }
        timer.resume()
    }

    /// Applies the limits, and once the request has failed, decides whether to cancel again or
    /// to stop waiting for the task.
    private func tick() -> TickAction {
        lock.withLock {
            guard completion != nil, !isAbandoned else { return .nothing }
            if failure != nil {
                let waited = DispatchTime.now().uptimeNanoseconds &- (failedAt ?? .now()).uptimeNanoseconds
                guard Double(waited) / 1e9 >= Self.abandonAfter else { return .cancel }
                isAbandoned = true
                return .abandon
            }
            let reason = isWaiting ? watch.checkDeadline() : watch.check(received: received)
            guard let reason else { return .nothing }
            failure = reason
            failedAt = .now()
            return .cancel
        }
    }

    /// Apple platforms, with `waitsForConnectivity`: the task waits for a network instead of
    /// failing (FoundationNetworking never calls it).
    func urlSession(_ session: URLSession, taskIsWaitingForConnectivity task: URLSessionTask) {
        lock.withLock { isWaiting = true }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock {
            guard isWaiting else { return }
            isWaiting = false
            watch.restartWindow(received: received)
        }
        guard let head = HTTPHead(response) else {
            fail(.badResponse("not an HTTP response"))
            completionHandler(.cancel)
            return
        }
        do {
            try sink.open(head)
            completionHandler(.allow)
        } catch {
            fail(error)
            completionHandler(.cancel)
            // FoundationNetworking on Linux read a refused 200 MB body to its end after `.cancel`.
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard lock.withLock({ failure == nil }) else { return }
        let refusal: TransferFailure? = data.withUnsafeBytes { bytes in
            do throws(TransferFailure) {
                try sink.write(bytes)
                return nil
            } catch {
                return error
            }
        }
        if let refusal {
            fail(refusal)
            dataTask.cancel()
        } else {
            lock.withLock { received += Int64(data.count) }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        complete(error: error)
    }

    /// Ends the request once, on the delegate queue: from the task's completion, or from the
    /// timer when a failed task never completed.
    private func complete(error: Error?) {
        let (completion, failure): (Completion?, TransferFailure?) = lock.withLock {
            timer?.cancel()
            timer = nil
            let completion = self.completion
            self.completion = nil
            return (completion, self.failure ?? error.map(URLErrorClassification.failure(for:)))
        }
        guard let completion else { return }
        var outcome = failure
        if outcome == .stalled, case .timedOut(let seconds)? = lock.withLock({ watch.check(received: received) }) {
            outcome = .timedOut(seconds: seconds)  // URLSession's resource timeout: the deadline's backstop
        }
        if outcome == nil {
            do { try sink.finish() } catch { outcome = error }
        }
        sink.close()
        completion(outcome)
    }

    private func fail(_ reason: TransferFailure) {
        lock.withLock {
            guard failure == nil else { return }
            failure = reason
            failedAt = .now()
        }
    }
}

extension HTTPHead {
    /// The status and headers of a URLSession task's response, when it is an HTTP one.
    init?(_ response: URLResponse?) {
        guard let http = response as? HTTPURLResponse else { return nil }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        self.init(status: http.statusCode, headers: headers)
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
