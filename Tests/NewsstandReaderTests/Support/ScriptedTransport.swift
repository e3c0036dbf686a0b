import Foundation
import NewsstandCore
import NewsstandReader

/// An in-memory `HTTPTransport` that answers from files a test puts on it, as a static server
/// would (nginx's rules: a strong `ETag`, `304` for a matching `If-None-Match`, `206` for a
/// `Range` whose `If-Range` still matches, `200` otherwise, `404` for anything not served),
/// with faults a test scripts: a connection cut after so many body bytes, or a status in
/// place of a file. It lets the reader's logic run with no server, socket or child process
/// (`make test-fast`); the download suites run the same logic on nginx with the real
/// transports.
///
/// The transport calls the sink as the real ones do: `open`, `write` per chunk, `finish` when
/// the body ended, `close` always.
final class ScriptedTransport: HTTPTransport {
    /// What the transport does for one request, once (then it serves normally again).
    enum Fault: Sendable, Equatable {
        /// Sends the head and this many bytes of the body, then fails as a cut connection.
        case cutAfter(bytes: Int)
        /// Answers this status with an empty body instead of the file.
        case status(Int)
    }

    /// One request the transport was given, as a server's log line would show it.
    struct Logged: Sendable, Equatable {
        var path: String
        var status: Int
        var range: String?
        var bodyBytes: Int
    }

    private struct File {
        var body: Data
        var etag: String
    }

    private struct State {
        var files: [String: File] = [:]
        var faults: [String: [Fault]] = [:]
        var log: [Logged] = []
        var version = 0
    }

    private let state = Locked(State())
    /// The base every served path is below: `https://scripted.test/`.
    let baseURL = URL(string: "https://scripted.test/")!
    /// The size of the chunks a body is handed to a sink in (small, so a body takes several).
    let chunkSize: Int

    /// A transport serving nothing yet, handing bodies over in chunks of `chunkSize` bytes.
    init(chunkSize: Int = 1024) { self.chunkSize = chunkSize }

    /// The URL a path is served at.
    func url(_ path: String) -> URL { baseURL.appendingPathComponent(path) }

    /// Serves `body` at `path`, with a new `ETag` (as a changed file gets from nginx).
    func serve(_ body: Data, at path: String) {
        state.withLock { state in
            state.version += 1
            state.files[Self.normalised(path)] = File(body: body, etag: "\"\(state.version)-\(body.count)\"")
        }
    }

    /// Stops serving `path` (it answers 404).
    func remove(_ path: String) { _ = state.withLock { $0.files.removeValue(forKey: Self.normalised(path)) } }

    /// Queues `fault` for the next request of `path`.
    func inject(_ fault: Fault, at path: String) {
        state.withLock { $0.faults[Self.normalised(path), default: []].append(fault) }
    }

    /// The requests made for `path`, in order.
    func requests(_ path: String) -> [Logged] {
        let path = Self.normalised(path)
        return state.withLock { $0.log.filter { $0.path == path } }
    }

    func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure) {
        defer { sink.close() }
        if Task.isCancelled { throw .cancelled }
        guard request.url.host == baseURL.host else {
            throw .network(code: 6, reason: "could not resolve host \(request.url.host ?? "")")
        }
        let path = Self.normalised(request.url.path)
        let (file, fault) = state.withLock { state -> (File?, Fault?) in
            let fault = state.faults[path]?.isEmpty == false ? state.faults[path]?.removeFirst() : nil
            return (state.files[path], fault)
        }
        let answer = Self.answer(request, file: file, fault: fault)
        state.withLock {
            $0.log.append(
                Logged(path: path, status: answer.head.status, range: request.headers["Range"], bodyBytes: answer.sent.count))
        }
        try sink.open(answer.head)
        var offset = 0
        while offset < answer.sent.count {
            let end = min(offset + chunkSize, answer.sent.count)
            var failure: TransferFailure?
            answer.sent[offset..<end].withUnsafeBytes { chunk in
                do throws(TransferFailure) { try sink.write(chunk) } catch { failure = error }
            }
            if let failure { throw failure }
            offset = end
        }
        if answer.cut { throw .network(code: 56, reason: "the connection was cut (scripted)") }
        try sink.finish()
    }

    /// The head and the bytes a static server would send for `request`, and whether the
    /// connection is cut after them.
    private static func answer(_ request: HTTPRequest, file: File?, fault: Fault?) -> (head: HTTPHead, sent: Data, cut: Bool) {
        if case .status(let status) = fault { return (HTTPHead(status: status, headers: ["Content-Length": "0"]), Data(), false) }
        guard let file else { return (HTTPHead(status: 404, headers: ["Content-Length": "0"]), Data(), false) }
        var headers = ["ETag": file.etag, "Accept-Ranges": "bytes"]
        if request.headers["If-None-Match"] == file.etag {
            return (HTTPHead(status: 304, headers: headers), Data(), false)
        }
        var status = 200
        var body = file.body
        if let range = request.headers["Range"], request.headers["If-Range"].map({ $0 == file.etag }) ?? true,
            let start = firstByte(of: range), start < file.body.count
        {
            status = 206
            body = file.body.subdata(in: start..<file.body.count)
            headers["Content-Range"] = "bytes \(start)-\(file.body.count - 1)/\(file.body.count)"
        }
        headers["Content-Length"] = String(body.count)
        if case .cutAfter(let bytes) = fault, bytes < body.count {
            return (HTTPHead(status: status, headers: headers), body.prefix(bytes), true)
        }
        return (HTTPHead(status: status, headers: headers), body, false)
    }

    /// The start of a `bytes=N-` range (the form a resumed download sends).
    private static func firstByte(of range: String) -> Int? {
        guard range.hasPrefix("bytes="), range.hasSuffix("-") else { return nil }
        return Int(range.dropFirst("bytes=".count).dropLast())
    }

    private static func normalised(_ path: String) -> String { path.hasPrefix("/") ? String(path.dropFirst()) : path }
}
