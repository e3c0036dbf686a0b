import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP socket listening on 127.0.0.1 on a port the kernel chose (bound to port 0 and held, so
/// no other process can take it), that never accepts: a host a hostile server may point a client
/// at, which tells afterwards whether anyone connected. The kernel completes a connection's
/// handshake into the backlog without `accept`, so `wasConnected` needs no waiting.
public final class LoopbackListener: Sendable {
    private let descriptor: Int32
    /// The port it listens on.
    public let port: Int

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        let port = Self.bindLoopback(fd)
        guard let port, listen(fd, 16) == 0 else {
            close(fd)
            throw TestFailure("cannot listen on a loopback port: errno \(errno)")
        }
        descriptor = fd
        self.port = port
    }

    deinit { close(descriptor) }

    /// Whether a connection has reached the port (one is waiting in the backlog).
    public var wasConnected: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) == 1 && entry.revents & Int16(POLLIN) != 0
    }

    /// Binds `fd` (an IPv4 stream socket) to 127.0.0.1 on a port the kernel chooses; returns the
    /// port, or nil when it cannot.
    static func bindLoopback(_ fd: Int32) -> Int? {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        return bound ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }
}
