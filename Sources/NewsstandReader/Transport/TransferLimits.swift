import Foundation

/// How long and how slowly one HTTP request may run. One rule for every transfer: the rate is
/// judged over a sliding window of `stallTimeout` seconds, so a connection that sends nothing
/// and one that drips a byte a second fail the same way (`TransferFailure.stalled`).
public struct TransferLimits: Sendable, Equatable {
    /// The whole request must end within this many seconds; nil for bundles, which are resumed
    /// after a failure instead of being bounded as a whole.
    public var deadline: TimeInterval?
    /// The window over which the rate is judged, and the connect timeout.
    public var stallTimeout: TimeInterval
    /// The bytes per second a transfer must average over every window.
    public var minimumSpeed: Int64

    /// Limits of one request.
    public init(deadline: TimeInterval?, stallTimeout: TimeInterval, minimumSpeed: Int64) {
        self.deadline = deadline
        self.stallTimeout = stallTimeout
        self.minimumSpeed = minimumSpeed
    }

    /// Seconds as a short text: "30", "0.5".
    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Watches one request against its `TransferLimits`; the transports call `check` from their
/// progress callbacks or timers (at least once a second).
public struct TransferWatch: Sendable {
    private let limits: TransferLimits
    private let start: UInt64
    /// (time, bytes received) samples, the oldest at least one window old once the transfer is.
    private var samples: [(time: UInt64, bytes: Int64)]

    /// A watch started now (`now`: the monotonic clock in nanoseconds, for tests).
    public init(_ limits: TransferLimits, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        self.limits = limits
        start = now
        samples = [(now, 0)]
    }

    /// Why the request must stop now, if it must. `received` counts the body bytes so far.
    public mutating func check(received: Int64, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> TransferFailure? {
        if let timedOut = checkDeadline(now: now) { return timedOut }
        let window = Self.nanoseconds(limits.stallTimeout)
        if let last = samples.last, now &- last.time >= window / 8 { samples.append((now, received)) }
        while samples.count >= 2, now &- samples[1].time >= window { samples.removeFirst() }
        let base = samples[0]
        guard now &- base.time >= window else { return nil }
        let required = max(1, Int64((Double(limits.minimumSpeed) * limits.stallTimeout).rounded(.up)))
        return received - base.bytes < required ? .stalled : nil
    }

    /// Why the request must stop now while it waits for a network (`NetworkPolicy.waitsForConnectivity`):
    /// only the deadline counts then, not the rate.
    public func checkDeadline(now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> TransferFailure? {
        if let deadline = limits.deadline, now &- start >= Self.nanoseconds(deadline) { return .timedOut(seconds: deadline) }
        return nil
    }

    /// Starts the rate's window again, once a request that waited for a network connected: the
    /// time it waited is no stall.
    public mutating func restartWindow(received: Int64, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        samples = [(now, received)]
    }

    private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        UInt64(max(0, seconds) * 1e9)
    }
}
