import CCurl
import Foundation
import NewsstandBuild
import NewsstandCore

/// One HTTP request on libcurl directly, with every wait bounded (`PublishTimeouts`), an upload
/// streamed from a file descriptor and hashed as it is sent, a response body kept up to a
/// limit, no redirects followed and no authentication dance: credentials go in the
/// `Authorization` header the caller gives, and a 401 comes back at once as a status.
///
/// URLSession on Linux (FoundationNetworking) waited forever, at 0% CPU, after a 401 to an
/// upload; libcurl driven directly has no such state machine between us and the socket.
/// Blocking: call `perform` from a thread of its own (`BlockingWork.run`).
final class HTTPExchange: @unchecked Sendable {  // used by one thread at a time, inside perform
    struct Request {
        var method: String
        /// An absolute, escaped http(s) URL without user information.
        var url: String
        /// Header lines (`Name: value`).
        var headers: [String] = []
        /// A body to upload: read from `fd` (owned by the caller; `path` for messages), exactly `size` bytes.
        var upload: (fd: Int32, path: String, size: Int64)?
        /// Response body bytes kept; a longer body fails the request when `failsBeyondLimit`,
        /// else the rest is read and dropped.
        var bodyLimit: Int64 = 64 << 10
        var failsBeyondLimit = false
    }

    struct Response {
        var status: Int
        var body: Data
        /// `Content-Length` of the answer, when the server gave one.
        var contentLength: Int64?
        /// For uploads: the bytes read from the file and their SHA-256.
        var sent: Int64
        var sentSHA256: String?
        /// The answer's `ETag` and `Last-Modified`, as the server wrote them.
        var etag: String? = nil
        var lastModified: String? = nil
        /// The answer's `Cache-Control` and `Content-Type`, as the server wrote them.
        var cacheControl: String? = nil
        var contentType: String? = nil
    }

    enum Failure: Error, Equatable {
        case timedOut(PublishError.Reason.Timeout, seconds: Double)
        case network(String)
        case tooLarge(limit: Int64)
        /// The upload's file could not be read, or ended before its announced size.
        case uploadRead(FileSystemError)
        case uploadShrank(sent: Int64, size: Int64)
    }

    private let request: Request
    private var body = Data()
    private var bodyOverflow = false
    private var sent: Int64 = 0
    private var readFailure: Failure?
    private let hasher = SHA256()

    /// libcurl opened (on first use, CCurl.h) and started, once: nil, or why it could not be opened.
    private static let unavailable: String? = {
        if let failure = ccurl_open() { return String(cString: failure) }
        curl_global_init(Int(CURL_GLOBAL_DEFAULT))
        return nil
    }()

    private init(_ request: Request) { self.request = request }

    /// Performs `request` to its end (or its timeout).
    static func perform(_ request: Request, timeouts: PublishTimeouts) -> Result<Response, Failure> {
        HTTPExchange(request).run(timeouts)
    }

    private func run(_ timeouts: PublishTimeouts) -> Result<Response, Failure> {
        if let why = Self.unavailable { return .failure(.network("libcurl could not be opened: \(why)")) }
        guard let handle = curl_easy_init() else { return .failure(.network("libcurl could not start")) }
        defer { curl_easy_cleanup(handle) }
        var headers: UnsafeMutablePointer<curl_slist>? = nil
        for line in request.headers { headers = curl_slist_append(headers, line) }
        defer { curl_slist_free_all(headers) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        let me = Unmanaged.passUnretained(self).toOpaque()
        _ = request.url.withCString { ccurl_setopt_pointer(handle, CURLOPT_URL, $0) }
        _ = "http,https".withCString { ccurl_setopt_pointer(handle, CURLOPT_PROTOCOLS_STR, $0) }
        _ = ccurl_setopt_pointer(handle, CURLOPT_HTTPHEADER, headers)
        _ = ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0)
        _ = ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, timeouts.connect)
        _ = ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, Int(PublishTimeouts.lowSpeedBytesPerSecond))
        _ = ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, timeouts.stall)
        _ = ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, me)
        _ = ccurl_setopt_write(handle) { data, size, count, me in
            Unmanaged<HTTPExchange>.fromOpaque(me!).takeUnretainedValue().received(data!, size * count)
        }
        if let upload = request.upload {
            _ = ccurl_setopt_long(handle, CURLOPT_UPLOAD, 1)
            _ = ccurl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(upload.size))
            _ = ccurl_setopt_pointer(handle, CURLOPT_READDATA, me)
            _ = ccurl_setopt_read(handle) { data, size, count, me in
                Unmanaged<HTTPExchange>.fromOpaque(me!).takeUnretainedValue().send(data!, size * count)
            }
        } else {
            // An upload's body is finite and sent at no less than the low speed; everything
            // else must end within the request deadline.
            _ = ccurl_setopt_long(handle, CURLOPT_TIMEOUT, timeouts.request)
        }
        if request.method == "HEAD" {
            _ = ccurl_setopt_long(handle, CURLOPT_NOBODY, 1)
        } else if request.method != "GET", request.method != "PUT" {
            _ = request.method.withCString { ccurl_setopt_pointer(handle, CURLOPT_CUSTOMREQUEST, $0) }
        }

        let code = curl_easy_perform(handle)
        if let readFailure { return .failure(readFailure) }
        if bodyOverflow, request.failsBeyondLimit { return .failure(.tooLarge(limit: request.bodyLimit)) }
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            let message = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
            guard code == CURLE_OPERATION_TIMEDOUT else { return .failure(.network(message)) }
            if ccurl_info_off(handle, CURLINFO_CONNECT_TIME_T) == 0 {
                return .failure(.timedOut(.connect, seconds: Double(timeouts.connect)))
            }
            let elapsed = Double(ccurl_info_off(handle, CURLINFO_TOTAL_TIME_T)) / 1e6
            if request.upload == nil, elapsed >= Double(timeouts.request) - 0.5 {
                return .failure(.timedOut(.request, seconds: Double(timeouts.request)))
            }
            return .failure(.timedOut(.stall, seconds: Double(timeouts.stall)))
        }
        let length = ccurl_info_off(handle, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T)
        return .success(
            Response(
                status: ccurl_response_code(handle), body: body, contentLength: length >= 0 ? Int64(length) : nil,
                sent: sent, sentSHA256: request.upload == nil ? nil : hasher.finalizeHex(),
                etag: Self.header("ETag", of: handle), lastModified: Self.header("Last-Modified", of: handle),
                cacheControl: Self.header("Cache-Control", of: handle), contentType: Self.header("Content-Type", of: handle)))
    }

    /// A header of the last answer (`curl_easy_header`, libcurl 7.83 and later), at most 1 KiB.
    private static func header(_ name: String, of handle: UnsafeMutableRawPointer) -> String? {
        var found: UnsafeMutablePointer<curl_header>?
        guard curl_easy_header(handle, name, 0, UInt32(CURLH_HEADER), -1, &found) == CURLHE_OK, let value = found?.pointee.value
        else { return nil }
        let text = String(cString: value)
        return text.utf8.count <= 1024 ? text : nil
    }

    /// Response body bytes: kept up to the limit.
    private func received(_ data: UnsafeMutablePointer<CChar>, _ length: Int) -> Int {
        let room = Int(max(0, request.bodyLimit - Int64(body.count)))
        if length > room {
            bodyOverflow = true
            if request.failsBeyondLimit { return 0 }  // 0 makes libcurl stop with a write error
        }
        body.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self), count: min(length, room))
        return length
    }

    /// Upload bytes: read from the file, never past the announced size, hashed as they go.
    private func send(_ buffer: UnsafeMutablePointer<CChar>, _ capacity: Int) -> Int {
        guard let upload = request.upload else { return 0 }
        let wanted = Int(min(Int64(capacity), upload.size - sent))
        guard wanted > 0 else { return 0 }
        while true {
            let n = read(upload.fd, buffer, wanted)
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else {
                readFailure = .uploadRead(.fromErrno(upload.path))
                return Int(CURL_READFUNC_ABORT)
            }
            // A file that shrank since it was measured.
            if n == 0 {
                readFailure = .uploadShrank(sent: sent, size: upload.size)
                return Int(CURL_READFUNC_ABORT)
            }
            hasher.update(UnsafeRawBufferPointer(start: buffer, count: n))
            sent += Int64(n)
            return n
        }
    }
}
