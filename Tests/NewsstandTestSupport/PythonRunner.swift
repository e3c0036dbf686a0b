import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs `Shell.python`'s scripts in a process forked from one Python server per test process
/// (`Scripts/python_runner.py`, a supervised `PythonServer`), with the modules the checks use
/// already imported: the suite runs well over a thousand short checks (zipfile, plistlib,
/// hashlib, urllib), and starting Python and importing them cost more than most checks. Each
/// script still runs in a process of its own, as `python3 -c script arguments…` would.
enum PythonRunner {
    /// The secret a request must carry: the server runs what it is sent, and any local process
    /// can reach a loopback port. It goes to the server in its environment, which other users'
    /// processes cannot read (its command line they can).
    private static let token = UUID().uuidString

    /// The server, started at the first check; nil when it cannot start (`Shell.python` then
    /// starts Python itself).
    private static let server: PythonServer? = try? PythonServer(
        script: PythonServer.script("python_runner.py"), environment: ["NEWSSTAND_RUNNER_TOKEN": token])

    private struct Answer: Decodable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `script` run with `arguments`, or nil when the server cannot be reached (nothing was run).
    static func run(_ script: String, _ arguments: [String]) throws -> Shell.Result? {
        guard let server, let socket = Nginx.connectedSocket(port: server.port) else { return nil }
        defer { close(socket) }
        let request = try JSONSerialization.data(
            withJSONObject: ["token": token, "script": script, "argv": arguments] as [String: Any])
        guard write(request, to: socket) else { throw TestFailure("the Python runner took no script (errno \(errno))") }
        shutdown(socket, Int32(SHUT_WR))
        let reply = read(socket)
        guard let answer = try? JSONDecoder().decode(Answer.self, from: reply),
            let stdout = Data(base64Encoded: answer.stdout), let stderr = Data(base64Encoded: answer.stderr)
        else { throw TestFailure("the Python runner gave no answer: \(String(decoding: reply.prefix(500), as: UTF8.self))") }
        return Shell.Result(
            status: answer.status, stdout: Shell.text(stdout), stderr: Shell.text(stderr))
    }

    private static func write(_ data: Data, to socket: Int32) -> Bool {
        data.withUnsafeBytes { buffer -> Bool in
            var sent = 0
            while sent < buffer.count {
                let written = send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { return false }
                sent += written
            }
            return true
        }
    }

    private static func read(_ socket: Int32) -> Data {
        var reply = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return reply }
            reply.append(contentsOf: buffer[..<count])
        }
    }
}
