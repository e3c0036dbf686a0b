import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// nginx logs a request only after it sent the answer: a client can have its whole answer (and
/// a `newsstand` process can have exited) before the line is in `access.log`. A request of the
/// harness's own, answered by the same single worker after the ones a test made, is logged
/// after theirs: once its line is there, so are theirs.
extension Nginx {
    /// Where the barrier requests go (`return 204`); `requests()` leaves them out.
    static let barrierPrefix = "/.log-barrier/"

    /// The `location` answering barrier requests.
    static let barrierLocation = "location ^~ \(barrierPrefix) { return 204; }"

    /// Sends a barrier request and waits (up to 5 s) until nginx logged it. Does nothing when
    /// nginx does not answer (stopped or paused): its log is then as complete as it gets.
    func settleLog() {
        let token = UUID().uuidString
        guard Self.get(port: port, path: Self.barrierPrefix + token) else { return }
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if loggedLines().contains(where: { $0.contains(token) }) { return }
            usleep(5_000)
        }
    }

    /// The access log's lines as they are now.
    func loggedLines() -> [Substring] {
        let log = (try? String(contentsOf: prefix.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n")
    }

    /// A `GET` of `path` over HTTP/1.0 to 127.0.0.1:`port`, read to its end (nginx closes it
    /// after answering), with 5 s deadlines for each send and receive; whether it was answered.
    private static func get(port: Int, path: String) -> Bool {
        guard let fd = Nginx.connectedSocket(port: port) else { return false }
        defer { close(fd) }
        var deadline = timeval(tv_sec: 5, tv_usec: 0)
        for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
            setsockopt(fd, SOL_SOCKET, option, &deadline, socklen_t(MemoryLayout<timeval>.size))
        }
        let request = Array("GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else {
            return false
        }
        var answered = false
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return answered && count == 0 }
            answered = true
        }
    }
}
