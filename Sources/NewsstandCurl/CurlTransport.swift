#if canImport(CCurl)
    import CCurl
    import Foundation
    import NewsstandCore
    import NewsstandReader

    /// libcurl driven directly: what `newsstand` runs the reader's requests on, on Linux.
    public struct CurlTransport: HTTPTransport {
        /// A transport on the process's libcurl.
        public init() {}

        public func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure) {
            try await CurlRequest.perform(request, into: sink)
        }
    }

    /// One request on libcurl directly, used on Linux: FoundationNetworking (itself libcurl)
    /// hands a body to its delegate in 16 KB chunks, each through an operation queue, which
    /// doubled a download's time and queued chunks without back-pressure; it also offers no
    /// rate limit. Here every chunk goes to the sink from libcurl's own callback, so a slow
    /// disk slows the transfer instead of filling memory, and the progress callback (called
    /// at least once a second, even while nothing arrives) applies the deadline and the
    /// minimum rate. Blocking: `perform` runs it on a thread of its own.
    final class CurlRequest: @unchecked Sendable {
        private let request: HTTPRequest
        private let sink: any ResponseSink
        // Everything below but `isCancelled` is touched only by the thread in `run()`: libcurl
        // calls its callbacks from `curl_easy_perform`.
        private let lock = NSLock()
        private var isCancelled = false
        private var statusLine: String?
        private var headers: [String: String] = [:]
        private var isOpen = false
        private var watch: TransferWatch
        private var failure: TransferFailure?

        /// libcurl opened (on first use, CCurl.h) and started, once: nil, or why it could not be opened.
        private static let unavailable: String? = {
            if let failure = ccurl_open() { return String(cString: failure) }
            curl_global_init(Int(CURL_GLOBAL_DEFAULT))
            return nil
        }()

        private init(_ request: HTTPRequest, sink: any ResponseSink) {
            self.request = request
            self.sink = sink
            watch = TransferWatch(request.limits)
        }

        /// Runs `request` on a new thread; cancelling the calling task stops it within a second.
        static func perform(_ request: HTTPRequest, into sink: any ResponseSink) async throws(TransferFailure) {
            let transfer = CurlRequest(request, sink: sink)
            let failure = await withTaskCancellationHandler {
                await BlockingWork.run { transfer.run() }
            } onCancel: {
                transfer.cancel()
            }
            if let failure { throw failure }
        }

        private func cancel() { lock.withLock { isCancelled = true } }
        private var cancelled: Bool { lock.withLock { isCancelled } }

        /// Runs the transfer to its end; nil when the sink got the whole body.
        private func run() -> TransferFailure? {
            defer { sink.close() }
            if let why = Self.unavailable { return .network(code: -1, reason: "libcurl could not be opened: \(why)") }
            guard let handle = CurlHandles.shared.take() else { return .network(code: -1, reason: "libcurl could not start") }
            defer { CurlHandles.shared.giveBack(handle) }
            var headerList: UnsafeMutablePointer<curl_slist>?
            if !request.acceptsCompression { headerList = curl_slist_append(headerList, "Accept-Encoding: identity") }
            for (name, value) in request.headers { headerList = curl_slist_append(headerList, "\(name): \(value)") }
            defer { curl_slist_free_all(headerList) }
            let me = Unmanaged.passUnretained(self).toOpaque()
            _ = request.url.absoluteString.withCString { ccurl_setopt_pointer(handle, CURLOPT_URL, $0) }
            _ = "http,https".withCString { ccurl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, $0) }
            _ = "http,https".withCString { ccurl_setopt_pointer(handle, CURLOPT_REDIR_PROTOCOLS_STR, $0) }
            if request.acceptsCompression {
                // "": every encoding this libcurl decodes; the sink sees decoded bytes.
                _ = "".withCString { ccurl_setopt_pointer(handle, CURLOPT_ACCEPT_ENCODING, $0) }
            }
            _ = ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headerList)
            _ = ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
            _ = ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, 10)
            _ = ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(request.limits.stallTimeout))
            if let deadline = request.limits.deadline {
                // A backstop only: the progress callback ends the request at the deadline.
                _ = ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(deadline + 2))
            }
            _ = ccurl_setopt_long(handle, CURLOPT_BUFFERSIZE, 512 << 10)  // CURL_MAX_READ_SIZE: fewer, larger writes
            _ = ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
            _ = ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, me)
            _ = ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, me)
            _ = ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, me)
            _ = ccurl_setopt_write(handle) { data, size, count, me in
                Unmanaged<CurlRequest>.fromOpaque(me!).takeUnretainedValue().body(data!, size * count)
            }
            _ = ccurl_setopt_header(handle) { data, size, count, me in
                Unmanaged<CurlRequest>.fromOpaque(me!).takeUnretainedValue().header(data!, size * count)
            }
            _ = ccurl_setopt_progress(handle) { me, _, received, _, _ in
                Unmanaged<CurlRequest>.fromOpaque(me!).takeUnretainedValue().shouldStop(received: Int64(received)) ? 1 : 0
            }
            let code = curl_easy_perform(handle)
            return finish(code, handle: handle)
        }

        private static func milliseconds(_ seconds: TimeInterval) -> Int {
            Int(min(max(seconds, 0.001), 1e9) * 1000)
        }

        /// A header line; a new status line (after a redirect) starts the headers again.
        private func header(_ data: UnsafeMutablePointer<CChar>, _ length: Int) -> Int {
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if line.hasPrefix("HTTP/") {
                statusLine = line
                headers = [:]
            } else if let colon = line.firstIndex(of: ":") {
                headers[String(line[..<colon])] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            }
            return length
        }

        /// Body bytes: the first call opens the sink with the final head.
        private func body(_ data: UnsafeMutablePointer<CChar>, _ length: Int) -> Int {
            do {
                if !isOpen { try open() }
                try sink.write(UnsafeRawBufferPointer(start: data, count: length))
                return length
            } catch {
                failure = failure ?? error
                return 0  // anything but `length` makes libcurl stop with a write error
            }
        }

        private func open() throws(TransferFailure) {
            isOpen = true
            guard let statusLine, let status = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
                throw .badResponse("no HTTP status line")
            }
            try sink.open(HTTPHead(status: status, headers: headers))
        }

        /// Progress: `received` counts body bytes as they came over the network.
        private func shouldStop(received: Int64) -> Bool {
            if cancelled { return true }
            guard failure == nil, let reason = watch.check(received: received) else { return failure != nil }
            failure = reason
            return true
        }

        /// The request's outcome once libcurl returned.
        private func finish(_ code: CURLcode, handle: UnsafeMutableRawPointer) -> TransferFailure? {
            // A response without a body (an empty file, a 304, a 404 without a page) opens here.
            if code == CURLE_OK, !isOpen, failure == nil {
                do { try open() } catch { failure = error }
            }
            if cancelled { return .cancelled }
            if let failure { return failure }
            guard code == CURLE_OK else {
                return Self.failure(for: code, systemError: Int32(ccurl_info_long(handle, CURLINFO_OS_ERRNO)), watch: &watch)
            }
            do {
                try sink.finish()
            } catch {
                return error
            }
            return nil
        }

        /// `systemError` is the `errno` of the connect call that failed, when one did.
        private static func failure(for code: CURLcode, systemError: Int32, watch: inout TransferWatch) -> TransferFailure {
            let reason = String(cString: curl_easy_strerror(code))
            switch code {
            case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT: return .unsupportedURL(reason: reason)
            // No route at all: the machine has no network (a server that is down refuses instead).
            case CURLE_COULDNT_CONNECT where systemError == ENETUNREACH || systemError == ENETDOWN:
                return .networkUnavailable(.offline)
            case CURLE_PEER_FAILED_VERIFICATION: return .insecureConnectionRefused(reason: reason)
            case CURLE_OPERATION_TIMEDOUT:
                // The connect timeout (a stall) or the deadline's backstop.
                if case .timedOut(let seconds)? = watch.check(received: 0) { return .timedOut(seconds: seconds) }
                return .stalled
            default: return .network(code: Int(code.rawValue), reason: reason)
            }
        }
    }

    /// Idle easy handles for the next requests: libcurl keeps a handle's connections open, so
    /// covers fetched one after another from one host reuse a connection (and its TLS session)
    /// as URLSession did, instead of connecting once per cover.
    final class CurlHandles: @unchecked Sendable {
        static let shared = CurlHandles()
        private let lock = NSLock()
        private var idle: [UnsafeMutableRawPointer] = []
        /// As many as covers fetched at once.
        private let capacity = 4

        func take() -> UnsafeMutableRawPointer? {
            lock.withLock { idle.popLast() } ?? curl_easy_init()
        }

        /// Keeps the handle (its options reset, its connections kept), or frees it when enough are idle.
        func giveBack(_ handle: UnsafeMutableRawPointer) {
            curl_easy_reset(handle)
            let kept = lock.withLock {
                guard idle.count < capacity else { return false }
                idle.append(handle)
                return true
            }
            if !kept { curl_easy_cleanup(handle) }
        }
    }
#endif
