import Foundation
import NewsstandReader

/// One HTTP POST to the daemon on 127.0.0.1, answered within `timeout` seconds (connecting,
/// sending and reading all count) in at most `maxResponseBytes`: a daemon that hangs, drips or
/// floods is an error, never a wait without end. Plain sockets rather than a transport: the
/// call must never go through a proxy (the body carries the secret), and it needs no TLS,
/// redirects or decoding. Blocking: runs on the engine's lane.
struct Aria2Connection: Sendable {
    var port: Int
    var timeout: TimeInterval
    var maxResponseBytes: Int

    /// The most a response head may take.
    static let maxHeadBytes = 16 << 10

    /// Sends `body` to `/jsonrpc` and returns the response's status and body; `method` names
    /// the call in errors.
    func post(_ body: Data, method: String) throws(Aria2Error) -> (status: Int, body: Data) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        let socket = try connect(method: method, deadline: deadline)
        defer { close(socket) }
        var request = Data(
            ("POST /jsonrpc HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json-rpc\r\n"
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8)
        request.append(body)
        try send(request, on: socket, method: method, deadline: deadline)
        return try receive(on: socket, method: method, deadline: deadline)
    }

    private func connect(method: String, deadline: UInt64) throws(Aria2Error) -> Int32 {
        let socket = Aria2Platform.streamSocket()
        guard socket >= 0 else { throw Aria2Platform.isSupported ? .connection(port: port, code: errno) : .notSupported }
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        do throws(Aria2Error) {
            if result != 0 {
                guard errno == EINPROGRESS else { throw .connection(port: port, code: errno) }
                try wait(socket, for: Int16(POLLOUT), method: method, deadline: deadline)
                var failure: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(socket, SOL_SOCKET, SO_ERROR, &failure, &length)
                guard failure == 0 else { throw .connection(port: port, code: failure) }
            }
        } catch {
            close(socket)
            throw error
        }
        return socket
    }

    private func send(_ request: Data, on socket: Int32, method: String, deadline: UInt64) throws(Aria2Error) {
        var sent = 0
        while sent < request.count {
            try wait(socket, for: Int16(POLLOUT), method: method, deadline: deadline)
            let count = request.withUnsafeBytes { bytes in
                Aria2Platform.send(socket, bytes.baseAddress! + sent, bytes.count - sent)
            }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { throw .connection(port: port, code: errno) }
            sent += count
        }
    }

    /// Reads until the body is complete (`Content-Length`) or the daemon closes the connection.
    private func receive(on socket: Int32, method: String, deadline: UInt64) throws(Aria2Error) -> (status: Int, body: Data) {
        var received = Data()
        var head: (status: Int, length: Int?, size: Int)?
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            if let head, let length = head.length, received.count >= head.size + length {
                return (head.status, received.subdata(in: head.size..<head.size + length))
            }
            try wait(socket, for: Int16(POLLIN), method: method, deadline: deadline)
            let count = read(socket, &buffer, buffer.count)
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count >= 0 else { throw .connection(port: port, code: errno) }
            if count == 0 {
                guard let head, head.length == nil else {
                    throw .badResponse(method: method, reason: "the connection closed early")
                }
                return (head.status, received.subdata(in: head.size..<received.count))
            }
            received.append(contentsOf: buffer[..<count])
            guard received.count <= maxResponseBytes + Self.maxHeadBytes else {
                throw .responseTooLarge(method: method, limit: maxResponseBytes)
            }
            if head == nil {
                head = try Self.parseHead(received, method: method)
                if let length = head?.length, length > maxResponseBytes {
                    throw .responseTooLarge(method: method, limit: maxResponseBytes)
                }
            }
        }
    }

    /// The status, `Content-Length` and size of a complete response head; nil while it is not
    /// complete yet.
    static func parseHead(_ data: Data, method: String) throws(Aria2Error) -> (status: Int, length: Int?, size: Int)? {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else {
            guard data.count <= maxHeadBytes else { throw .badResponse(method: method, reason: "the response head is too long") }
            return nil
        }
        let lines = String(decoding: data[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ")
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw .badResponse(method: method, reason: "not an HTTP response")
        }
        var length: Int?
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            switch parts[0].lowercased() {
            case "content-length":
                guard let value = Int(parts[1]), value >= 0 else {
                    throw .badResponse(method: method, reason: "a bad Content-Length")
                }
                length = value
            case "transfer-encoding":
                throw .badResponse(method: method, reason: "a Transfer-Encoding aria2 does not send")
            default: continue
            }
        }
        return (status, length, end.upperBound - data.startIndex)
    }

    /// Waits until `socket` is ready for `events`, or throws when the deadline has passed.
    private func wait(_ socket: Int32, for events: Int16, method: String, deadline: UInt64) throws(Aria2Error) {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { throw .timedOut(method: method, seconds: timeout) }
            var entry = pollfd(fd: socket, events: events, revents: 0)
            let milliseconds = Int32(min(1000, max(1, (deadline - now) / 1_000_000)))
            let ready = poll(&entry, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            guard ready >= 0 else { throw .connection(port: port, code: errno) }
            if ready > 0 { return }
        }
    }
}
