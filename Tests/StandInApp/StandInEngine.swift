import Foundation
import NewsstandCore
import NewsstandReader

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The app's side of the stand-in OS transfer service (`transfer_service.py`): a
/// `TransferEngine` whose transfers run in that other process, as a background URLSession's run
/// in the system's. Its events arrive on a thread of its own and reach the library's sink the way
/// URLSession's delegate calls do: a finished file only inside `finished`, deleted by the service
/// once it returns; and once a relaunch's events are all delivered, `deliveredAllEvents` and then
/// the system's completion handler (the service counts its calls).
final class StandInEngine: TransferEngine, @unchecked Sendable {  // safe: its state is in `Locked`s
    let kind = TransferEngineKind.background
    private let service: URL
    private let openedByUser: Bool
    private let sink = Locked<(any TransferEventSink)?>(nil)
    /// Signalled once the wake's completion handler has been called.
    let wakeEnded = DispatchSemaphore(value: 0)

    /// An engine for the service at `service`; `openedByUser` when the user opened the app
    /// (which ends a force-quit's silence), not the system relaunching it.
    init(service: URL, openedByUser: Bool) {
        self.service = service
        self.openedByUser = openedByUser
    }

    func attach(_ sink: any TransferEventSink) {
        self.sink.withLock { $0 = sink }
        _ = try? call("connect", ["pid": Int(getpid()), "user": openedByUser])
        Thread.detachNewThread { self.deliverEvents() }
    }

    func start(_ job: TransferJob) async throws(TransferFailure) {
        var body: [String: Any] = ["description": job.id.description, "url": job.url.absoluteString]
        if let data = job.resumeData, let resume = try? JSONSerialization.jsonObject(with: data) { body["resume"] = resume }
        do {
            _ = try call("task", body)
        } catch {
            throw .network(code: 7, reason: "the transfer service did not answer: \(error)")
        }
    }

    func cancel(_ id: TransferID, keepingData: Bool) async {
        _ = try? call("cancel", ["description": id.description])
    }

    func report() async throws(TransferFailure) -> [TransferID: TransferReport] {
        let answer: [String: Any]
        do {
            answer = try call("list", [:])
        } catch {
            throw .network(code: 7, reason: "the transfer service did not answer: \(error)")
        }
        var reports: [TransferID: TransferReport] = [:]
        for task in answer["tasks"] as? [[String: Any]] ?? [] {
            guard let id = (task["description"] as? String).flatMap(TransferID.init) else { continue }
            let received = Int64(task["received"] as? Int ?? 0)
            reports[id] = .running(DownloadProgress(bytesReceived: received, bytesExpected: nil))
        }
        return reports
    }

    /// The delegate's queue: one event at a time, in the service's order.
    private func deliverEvents() {
        let pid = Int(getpid())
        while true {
            guard let sink = sink.current, let answer = try? call("events", ["wait": 1, "pid": pid]) else {
                usleep(100_000)
                continue
            }
            if answer["allDelivered"] as? Bool == true {
                sink.deliveredAllEvents()
                _ = try? call("completion", [:])
                wakeEnded.signal()
                // iOS suspends the app once it called the completion handler: what finishes later
                // wakes it again.
                return
            }
            guard let event = answer["event"] as? [String: Any], let kind = event["kind"] as? String,
                let id = (event["description"] as? String).flatMap(TransferID.init), let seq = event["seq"] as? Int
            else { continue }
            switch kind {
            case "progress":
                let expected = (event["expected"] as? Int).map(Int64.init)
                sink.progressed(
                    id, DownloadProgress(bytesReceived: Int64(event["received"] as? Int ?? 0), bytesExpected: expected))
            case "finished":
                _ = try? call("handling", ["seq": seq, "pid": pid])
                let file = URL(fileURLWithPath: event["file"] as? String ?? "/")
                var status = event["status"] as? Int
                // A task resumed from resume data ends with the whole file and its last 206, as
                // on iOS; whole when as long as the range says (BackgroundSessionFinish's rule).
                if status == 206, let total = event["total"] as? Int, FileStatus.size(of: file) == Int64(total) { status = 200 }
                sink.finished(id, status: status, file: file)
                _ = try? call("handled", ["seq": seq])
            default:
                let error = event["error"] as? String ?? "failed"
                let failure: TransferFailure =
                    if error != "cancelled" {
                        .network(code: 7, reason: error)
                    } else if event["reason"] is Int {
                        .cancelledBySystem(.userForceQuit)
                    } else {
                        .cancelled
                    }
                let resume = (event["resume"] as? [String: Any]).flatMap { try? JSONSerialization.data(withJSONObject: $0) }
                sink.failed(id, failure, resumeData: resume)
                _ = try? call("handled", ["seq": seq])
            }
        }
    }

    /// One RPC, synchronously (from the event thread or an engine call).
    private func call(_ verb: String, _ body: [String: Any]) throws -> [String: Any] {
        var request = URLRequest(url: service.appendingPathComponent(verb), timeoutInterval: 30)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        let answer = Locked<Result<Data, any Error>>(.failure(URLError(.unknown)))
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, _, error in
            answer.withLock { $0 = data.map { .success($0) } ?? .failure(error ?? URLError(.badServerResponse)) }
            done.signal()
        }.resume()
        done.wait()
        let data = try answer.current.get()
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
