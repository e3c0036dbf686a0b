/// How long a publish waits for a server, so that no request can hang it: each request must
/// connect within `connect` seconds, a transfer slower than `lowSpeedBytesPerSecond` for `stall`
/// seconds fails, and every request other than an upload must be answered completely within
/// `request` seconds. (An upload's body is finite and sent at no less than the low speed, and
/// after it the wait for the answer is a stall like any other, so it needs no overall deadline.)
public struct PublishTimeouts: Sendable, Equatable {
    /// Seconds to connect (name lookup, TCP, TLS). `--connect-timeout`, default 30.
    public var connect: Int
    /// Seconds a transfer may stay under `lowSpeedBytesPerSecond`. `--stall-timeout`, default 60.
    public var stall: Int
    /// Seconds for a whole request other than an upload. `--timeout`, default 120.
    public var request: Int
    /// Seconds after its last renewal that a lock object on an rclone remote is taken for a
    /// dead publish's, and taken over. `--lock-timeout`, default 3600. A publish renews its own
    /// every minute (a fifth of this when that is shorter).
    public var lock: Int

    /// The speed under which a transfer counts as stalled: 1 KiB/s.
    public static let lowSpeedBytesPerSecond: Int64 = 1024

    public init(connect: Int = 30, stall: Int = 60, request: Int = 120, lock: Int = 3600) {
        self.connect = connect
        self.stall = stall
        self.request = request
        self.lock = lock
    }
}
