import Foundation
import NewsstandCore
import NewsstandReader

/// An in-memory `HTTPTransport` that answers from files a test puts on it, as a static server
/// would (nginx's rules: a strong `ETag` and a `Last-Modified`, `304` when every conditional
/// header sent matches, `206` for a `Range` whose `If-Range` still matches (one range, or
/// several as `multipart/byteranges`), `416` for a range past the end, `200` otherwise, `404`
/// for anything not served), with faults a test scripts: a connection cut after so many body
/// bytes, a status in place of a file, or a body held mid-way until the test lets it go. It
/// lets the reader's logic run with no server, socket or child process (`make test-fast`); the
/// transport suites run the same logic on nginx with the real transports.
///
/// Locations imitate the test nginx's (`Nginx.swift`): a path below a prefix given to
/// `setLocation` serves the file below the rest of the path, with that location's rules (503
/// for everything, `Range` ignored, one validator only, or a `Pause`).
///
/// The transport calls the sink as the real ones do: `open`, `write` per chunk, `finish` when
/// the body ended, `close` always. Nothing here waits on a clock: a held body waits for the
/// test (or for its task's cancellation), never for time to pass.
final class ScriptedTransport: HTTPTransport {
    /// What the transport does for one request, once (then it serves normally again).
    enum Fault: Sendable, Equatable {
        /// Sends the head and this many bytes of the body, then fails as a cut connection.
        case cutAfter(bytes: Int)
        /// Answers this status with an empty body instead of the file.
        case status(Int)
    }

    /// The rules of the paths below a prefix (as nginx's `location` blocks in the tests).
    struct Location: Sendable {
        /// Answers this status with an empty body to everything (`/broken/`: 503).
        var status: Int?
        /// Answers a `Range` request with the whole file, 200 (`max_ranges 0`).
        var ignoresRange = false
        /// Sends an `ETag` (and heeds `If-None-Match`).
        var sendsETag = true
        /// Sends a `Last-Modified` (and heeds `If-Modified-Since`).
        var sendsLastModified = true
        /// Holds the body of a request without `Range` at this pause (as `/slow/` is slow only
        /// for those): a first download can be cancelled mid-way, a resumed one is not held.
        var pause: Pause?
        /// Serves only URLs signed for it, as nginx's `secure_link` does (`/paid/`).
        var secureLink: SecureLink?
    }

    /// nginx's `secure_link $arg_md5,$arg_expires; secure_link_md5 "$secure_link_expires$uri
    /// <secret>"` (`Nginx.paidLocation`): a request needs the `md5` `SignedURL` computes for its
    /// decoded path and `expires`, and `expires` not before the link's clock; 403 otherwise. The
    /// clock is the test's (`advance(by:)`), never the machine's: a link expires when the test
    /// says so.
    final class SecureLink: Sendable {
        let secret: SigningSecret
        private let clock: Locked<Int64>

        init(secret: String, now: Int64 = 1_800_000_000) throws {
            self.secret = try SigningSecret(secret)
            clock = Locked(now)
        }

        /// The seconds since 1970 the host compares `expires` with.
        var now: Int64 { clock.withLock { $0 } }

        /// Moves the host's clock on.
        func advance(by seconds: Int64) { clock.withLock { $0 += seconds } }

        /// Whether nginx's `$secure_link` would be `1` for `url`.
        func allows(_ url: URL) -> Bool {
            let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
            guard let md5 = items.first(where: { $0.name == "md5" })?.value,
                let expires = items.first(where: { $0.name == "expires" })?.value.flatMap({ Int64($0) }),
                let signature = try? SignedURL.signature(path: Array(url.path.utf8), expires: expires, secret: secret)
            else { return false }
            return signature == md5 && expires >= now
        }
    }

    /// Where a body stops until the test releases it: after `bytes` bytes of a body, the
    /// transport waits for `release()` or for the requesting task to be cancelled (then it
    /// fails as a cancelled transfer, as the real ones do). Once released, it holds nothing.
    final class Pause: Sendable {
        let bytes: Int
        private struct State {
            var released = false
            var held: [UUID: CheckedContinuation<Void, Never>] = [:]
            var cancelled: Set<UUID> = []
            var reachedCount = 0
            var reachers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        }
        private let state = Locked(State())

        init(after bytes: Int) { self.bytes = bytes }

        /// Lets every held body go on, and every later one through unheld.
        func release() {
            let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.released = true
                defer { state.held = [:] }
                return Array(state.held.values)
            }
            for continuation in waiting { continuation.resume() }
        }

        /// Returns once `count` bodies (in all) have been held here.
        func reached(_ count: Int = 1) async {
            await withCheckedContinuation { continuation in
                let now = state.withLock { state -> Bool in
                    if state.reachedCount >= count { return true }
                    state.reachers.append((count, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        }

        /// How many bodies were held here so far.
        var timesReached: Int { state.withLock { $0.reachedCount } }

        /// Waits until released or until the calling task is cancelled.
        func hold() async {
            let id = UUID()
            await withTaskCancellationHandler {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let (now, woken) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                        state.reachedCount += 1
                        let count = state.reachedCount
                        let woken = state.reachers.filter { $0.count <= count }.map(\.continuation)
                        state.reachers.removeAll { $0.count <= count }
                        if state.released || state.cancelled.remove(id) != nil { return (true, woken) }
                        state.held[id] = continuation
                        return (false, woken)
                    }
                    for continuation in woken { continuation.resume() }
                    if now { continuation.resume() }
                }
            } onCancel: {
                let held = state.withLock { state -> CheckedContinuation<Void, Never>? in
                    guard let held = state.held.removeValue(forKey: id) else {
                        state.cancelled.insert(id)
                        return nil
                    }
                    return held
                }
                held?.resume()
            }
        }
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
        var lastModified: String
    }

    private struct State {
        var files: [String: File] = [:]
        var faults: [String: [Fault]] = [:]
        var locations: [String: Location] = [:]
        var log: [Logged] = []
        var version = 0
        var down = false
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

    /// Serves `body` at `path`, with a new `ETag` and `Last-Modified` (as a changed file gets
    /// from nginx).
    func serve(_ body: Data, at path: String) {
        state.withLock { state in
            state.version += 1
            let modified = Date(timeIntervalSince1970: 1_700_000_000 + Double(state.version))
            state.files[Self.normalised(path)] = File(
                body: body, etag: "\"\(state.version)-\(body.count)\"", lastModified: Self.httpDate(modified))
        }
    }

    /// Stops serving `path` (it answers 404).
    func remove(_ path: String) { _ = state.withLock { $0.files.removeValue(forKey: Self.normalised(path)) } }

    /// The bytes served at `path`, nil when nothing is.
    func served(_ path: String) -> Data? { state.withLock { $0.files[Self.normalised(path)]?.body } }

    /// The status a plain `GET` of `url` is answered with (the body read and dropped), as
    /// `curl -w '%{http_code}'` prints it.
    func status(of url: URL) async throws -> Int {
        final class Head: ResponseSink {
            let status = Locked(0)
            func open(_ head: HTTPHead) throws(TransferFailure) { status.withLock { $0 = head.status } }
            func write(_ chunk: UnsafeRawBufferPointer) throws(TransferFailure) {}
            func finish() throws(TransferFailure) {}
            func close() {}
        }
        let head = Head()
        let limits = TransferLimits(deadline: nil, stallTimeout: 10, minimumSpeed: 0)
        try await perform(HTTPRequest(url: url, acceptsCompression: false, limits: limits), into: head)
        return head.status.withLock { $0 }
    }

    /// The `ETag` `path` is served with now.
    func etag(_ path: String) -> String? { state.withLock { $0.files[Self.normalised(path)]?.etag } }

    /// Paths below `prefix` (`"slow/"`) serve the files below the rest of the path, by `location`'s rules.
    func setLocation(_ prefix: String, _ location: Location) {
        state.withLock { $0.locations[Self.normalised(prefix)] = location }
    }

    /// Stops answering: every request fails as a refused connection (a stopped server), until
    /// `comeBack()`.
    func goDown() { state.withLock { $0.down = true } }

    /// Answers again after `goDown()`.
    func comeBack() { state.withLock { $0.down = false } }

    /// Queues `fault` for the next request of `path`.
    func inject(_ fault: Fault, at path: String) {
        state.withLock { $0.faults[Self.normalised(path), default: []].append(fault) }
    }

    /// The requests made for `path`, in order.
    func requests(_ path: String) -> [Logged] {
        let path = Self.normalised(path)
        return state.withLock { $0.log.filter { $0.path == path } }
    }

    /// Every request made, in order.
    var allRequests: [Logged] { state.withLock { $0.log } }

    func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure) {
        defer { sink.close() }
        if Task.isCancelled { throw .cancelled }
        guard request.url.host == baseURL.host else {
            throw .network(code: 6, reason: "could not resolve host \(request.url.host ?? "")")
        }
        if state.withLock({ $0.down }) { throw .network(code: 7, reason: "could not connect to server (scripted)") }
        let path = Self.normalised(request.url.path)
        let (file, fault, location) = state.withLock { state -> (File?, Fault?, Location) in
            let fault = state.faults[path]?.isEmpty == false ? state.faults[path]?.removeFirst() : nil
            let prefix = state.locations.keys.filter { path.hasPrefix($0) }.max { $0.count < $1.count }
            let location = prefix.flatMap { state.locations[$0] } ?? Location()
            let filePath = prefix.map { String(path.dropFirst($0.count)) } ?? path
            return (state.files[filePath], fault, location)
        }
        let answer = Self.answer(request, file: file, fault: fault, location: location)
        state.withLock {
            $0.log.append(
                Logged(path: path, status: answer.head.status, range: request.headers["Range"], bodyBytes: answer.sent.count))
        }
        try sink.open(answer.head)
        let pauseAt = request.headers["Range"] == nil ? location.pause.map { min($0.bytes, answer.sent.count) } : nil
        var offset = 0
        while offset < answer.sent.count {
            if offset == pauseAt, let pause = location.pause {
                await pause.hold()
                if Task.isCancelled { throw .cancelled }
            }
            var limit = answer.sent.count
            if let pauseAt, pauseAt > offset { limit = pauseAt }
            let end = min(offset + chunkSize, limit)
            var failure: TransferFailure?
            answer.sent[offset..<end].withUnsafeBytes { chunk in
                do throws(TransferFailure) { try sink.write(chunk) } catch { failure = error }
            }
            if let failure { throw failure }
            offset = end
        }
        if answer.cut { throw .network(code: 56, reason: "the connection was cut (scripted)") }
        if Task.isCancelled { throw .cancelled }
        try sink.finish()
    }

    /// The boundary of a `multipart/byteranges` answer (nginx numbers its own the same way).
    static let boundary = "00000000000000000001"

    /// The head and the bytes a static server would send for `request`, and whether the
    /// connection is cut after them.
    private static func answer(_ request: HTTPRequest, file: File?, fault: Fault?, location: Location) -> (
        head: HTTPHead, sent: Data, cut: Bool
    ) {
        if case .status(let status) = fault { return (HTTPHead(status: status, headers: ["Content-Length": "0"]), Data(), false) }
        if let status = location.status { return (HTTPHead(status: status, headers: ["Content-Length": "0"]), Data(), false) }
        if let link = location.secureLink, !link.allows(request.url) {
            return (HTTPHead(status: 403, headers: ["Content-Length": "0"]), Data(), false)
        }
        guard let file else { return (HTTPHead(status: 404, headers: ["Content-Length": "0"]), Data(), false) }
        var headers = ["Accept-Ranges": "bytes"]
        if location.sendsETag { headers["ETag"] = file.etag }
        if location.sendsLastModified { headers["Last-Modified"] = file.lastModified }
        // nginx's not-modified filter: every conditional header it heeds must match, and one must be there.
        var conditions: [Bool] = []
        if let tag = request.headers["If-None-Match"] { conditions.append(location.sendsETag && tag == file.etag) }
        if let date = request.headers["If-Modified-Since"], location.sendsLastModified {
            conditions.append(date == file.lastModified)
        }
        if !conditions.isEmpty, !conditions.contains(false) {
            return (HTTPHead(status: 304, headers: headers), Data(), false)
        }
        var status = 200
        var body = file.body
        let size = file.body.count
        let ifRange = request.headers["If-Range"].map {
            (location.sendsETag && $0 == file.etag) || (location.sendsLastModified && $0 == file.lastModified)
        }
        if let range = request.headers["Range"], !location.ignoresRange, ifRange ?? true,
            let ranges = byteRanges(range, size: size)
        {
            guard !ranges.isEmpty else {
                return (
                    HTTPHead(status: 416, headers: ["Content-Range": "bytes */\(size)", "Content-Length": "0"]), Data(), false
                )
            }
            status = 206
            if ranges.count == 1 {
                body = file.body.subdata(in: ranges[0])
                headers["Content-Range"] = "bytes \(ranges[0].lowerBound)-\(ranges[0].upperBound - 1)/\(size)"
            } else {
                body = Data()
                for part in ranges {
                    body.append(
                        Data(
                            ("\r\n--\(boundary)\r\nContent-Type: application/zip\r\n"
                                + "Content-Range: bytes \(part.lowerBound)-\(part.upperBound - 1)/\(size)\r\n\r\n").utf8))
                    body.append(file.body.subdata(in: part))
                }
                body.append(Data("\r\n--\(boundary)--\r\n".utf8))
                headers["Content-Type"] = "multipart/byteranges; boundary=\(boundary)"
            }
        }
        headers["Content-Length"] = String(body.count)
        if case .cutAfter(let bytes) = fault, bytes < body.count {
            return (HTTPHead(status: status, headers: headers), body.prefix(bytes), true)
        }
        return (HTTPHead(status: status, headers: headers), body, false)
    }

    /// The ranges of a `bytes=` header (`N-`, `A-B`, `-N`, comma-separated) within `size`, in
    /// the order asked; empty when none is satisfiable (416), nil when the header is not one
    /// (ignored: the whole file).
    private static func byteRanges(_ header: String, size: Int) -> [Range<Int>]? {
        guard header.hasPrefix("bytes=") else { return nil }
        var ranges: [Range<Int>] = []
        for spec in header.dropFirst("bytes=".count).split(separator: ",") {
            let parts = spec.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            if parts[0].isEmpty {
                guard let suffix = Int(parts[1]) else { return nil }
                if suffix > 0, size > 0 { ranges.append(max(0, size - suffix)..<size) }
                continue
            }
            guard let start = Int(parts[0]) else { return nil }
            let end = parts[1].isEmpty ? size - 1 : Int(parts[1]).map { min($0, size - 1) }
            guard let end, end >= start else { return nil }
            if start < size { ranges.append(start..<(end + 1)) }
        }
        return ranges
    }

    private static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    private static func normalised(_ path: String) -> String { path.hasPrefix("/") ? String(path.dropFirst()) : path }
}
