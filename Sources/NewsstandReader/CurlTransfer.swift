#if canImport(CCurl)
    import CCurl
    import Foundation

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// One download attempt on libcurl directly, used on Linux: FoundationNetworking (itself
    /// libcurl) hands a body to its delegate in 16 KB chunks, each through an operation queue,
    /// which doubled a download's time and queued chunks without back-pressure. Here every
    /// chunk is written to the `.part` file from libcurl's own callback, so a slow disk slows
    /// the transfer instead of filling memory. Blocking: run it on a thread of its own.
    final class CurlTransfer: @unchecked Sendable {
        private let url: URL
        private let part: URL
        private let offset: Int64
        private let validator: String?
        private let stallTimeout: TimeInterval
        private let progress: @Sendable (Int64, Int64?) -> Void

        private let lock = NSLock()
        private var isCancelled = false
        private var statusLine: String?
        private var headers: [String: String] = [:]
        private var file: PartFile?
        private var fileSize: Int64 = 0
        private var received: Int64 = 0
        private var lastReported: Int64 = 0
        private var lastActivity = DispatchTime.now()
        private var failure: TransferFailure?

        private static let initialized: Bool = {
            curl_global_init(Int(CURL_GLOBAL_DEFAULT))
            return true
        }()

        init(
            url: URL, part: URL, offset: Int64, validator: String?, stallTimeout: TimeInterval,
            progress: @escaping @Sendable (Int64, Int64?) -> Void
        ) {
            self.url = url
            self.part = part
            self.offset = offset
            self.validator = validator
            self.stallTimeout = stallTimeout
            self.progress = progress
        }

        /// Stops the transfer at libcurl's next progress call (at least once a second).
        func cancel() { lock.withLock { isCancelled = true } }

        /// Runs the transfer to its end.
        func run() -> Result<ResumableDownload.Outcome, TransferFailure> {
            _ = Self.initialized
            guard let handle = curl_easy_init() else { return .failure(.network(code: -1, reason: "libcurl could not start")) }
            defer { curl_easy_cleanup(handle) }
            var requestHeaders: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "Accept-Encoding: identity")
            if offset > 0, let validator {
                requestHeaders = curl_slist_append(requestHeaders, "Range: bytes=\(offset)-")
                requestHeaders = curl_slist_append(requestHeaders, "If-Range: \(validator)")
            }
            defer { curl_slist_free_all(requestHeaders) }
            let me = Unmanaged.passUnretained(self).toOpaque()
            _ = url.absoluteString.withCString { ccurl_setopt_pointer(handle, CURLOPT_URL, $0) }
            _ = "http,https".withCString { ccurl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, $0) }
            _ = "http,https".withCString { ccurl_setopt_pointer(handle, CURLOPT_REDIR_PROTOCOLS_STR, $0) }
            _ = ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, requestHeaders)
            _ = ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 1)
            _ = ccurl_setopt_long(handle, CURLOPT_MAXREDIRS, 10)
            _ = ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
            _ = ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, Int(stallTimeout * 1000))
            _ = ccurl_setopt_long(handle, CURLOPT_BUFFERSIZE, 512 << 10)  // CURL_MAX_READ_SIZE: fewer, larger writes
            _ = ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0)
            _ = ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, me)
            _ = ccurl_setopt_pointer(handle, CURLOPT_HEADERDATA, me)
            _ = ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, me)
            _ = ccurl_setopt_write(handle) { data, size, count, me in
                Unmanaged<CurlTransfer>.fromOpaque(me!).takeUnretainedValue().body(data!, size * count)
            }
            _ = ccurl_setopt_header(handle) { data, size, count, me in
                Unmanaged<CurlTransfer>.fromOpaque(me!).takeUnretainedValue().header(data!, size * count)
            }
            _ = ccurl_setopt_progress(handle) { me, _, _, _, _ in
                Unmanaged<CurlTransfer>.fromOpaque(me!).takeUnretainedValue().shouldStop() ? 1 : 0
            }
            let code = curl_easy_perform(handle)
            let status = ccurl_response_code(handle)
            return lock.withLock { finish(code, status: status) }
        }

        /// A header line; a new status line (after a redirect) starts the headers again.
        private func header(_ data: UnsafeMutablePointer<CChar>, _ length: Int) -> Int {
            let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            lock.withLock {
                lastActivity = .now()
                if line.hasPrefix("HTTP/") {
                    statusLine = line
                    headers = [:]
                } else if let colon = line.firstIndex(of: ":") {
                    headers[String(line[..<colon])] = String(line[line.index(after: colon)...]).trimmingCharacters(
                        in: .whitespaces)
                }
            }
            return length
        }

        /// Body bytes: the first call opens the `.part` file for the response.
        private func body(_ data: UnsafeMutablePointer<CChar>, _ length: Int) -> Int {
            let report: (Int64, Int64?)? = lock.withLock {
                if file == nil, !open() { return nil }
                guard let file else { return nil }
                var written = 0
                while written < length {
                    let n = write(file.handle.fileDescriptor, data + written, length - written)
                    if n < 0, errno == EINTR { continue }
                    guard n > 0 else {
                        failure = .file(path: part.path, reason: String(cString: strerror(errno)))
                        return nil
                    }
                    written += n
                }
                fileSize += Int64(length)
                received += Int64(length)
                lastActivity = .now()
                let step = max(64 << 10, (file.expected ?? 0) / 200)
                guard fileSize - lastReported >= step else { return (-1, nil) }
                lastReported = fileSize
                return (fileSize, file.expected)
            }
            guard let report else { return 0 }  // 0 makes libcurl stop with a write error
            if report.0 >= 0 { progress(report.0, report.1) }
            return length
        }

        /// Opens the partial file for the response received; false (with the reason kept) when
        /// the response cannot be used. Call with the lock held.
        private func open() -> Bool {
            guard let statusLine, let code = statusLine.split(separator: " ").dropFirst().first.flatMap({ Int($0) }),
                let response = HTTPURLResponse(url: url, statusCode: code, httpVersion: nil, headerFields: headers)
            else {
                failure = .badResponse("no HTTP status line")
                return false
            }
            do {
                let opened = try PartFile.open(for: response, url: url, part: part, offset: offset)
                file = opened
                fileSize = opened.startSize
                lastReported = fileSize
                return true
            } catch {
                failure = error
                return false
            }
        }

        private func shouldStop() -> Bool {
            lock.withLock {
                if isCancelled { return true }
                let idle = Double(DispatchTime.now().uptimeNanoseconds - lastActivity.uptimeNanoseconds) / 1e9
                if idle > stallTimeout {
                    failure = failure ?? .stalled
                    return true
                }
                return false
            }
        }

        /// The attempt's outcome once libcurl returned. Call with the lock held.
        private func finish(_ code: CURLcode, status: Int) -> Result<ResumableDownload.Outcome, TransferFailure> {
            // A response without a body (an empty file, a 416, a 404 without a page) opens here.
            if code == CURLE_OK, file == nil, failure == nil, status > 0 { _ = open() }
            try? file?.handle.close()
            if fileSize != lastReported, failure == nil, code == CURLE_OK { progress(fileSize, file?.expected) }
            if isCancelled { return .failure(.cancelled) }
            if let failure { return .failure(failure) }
            guard code == CURLE_OK else {
                let reason = String(cString: curl_easy_strerror(code))
                return .failure(code == CURLE_OPERATION_TIMEDOUT ? .stalled : .network(code: Int(code.rawValue), reason: reason))
            }
            guard let file else { return .failure(.badResponse("no response")) }
            if let expected = file.expected, fileSize != expected {
                return .failure(.network(code: 0, reason: "connection closed after \(fileSize) of \(expected) bytes"))
            }
            return .success(.init(size: fileSize, bytesTransferred: received, restarted: file.restarted))
        }
    }
#endif
