import Foundation

/// The time the library waits on: a retry's backoff, the new-content deadline, the grace a
/// relaunch gives an engine's events, a wait for another owner's claim, a claim's lease. The
/// system's by default (`system`); a test gives one it drives, so that no test waits for the wall
/// clock to see a backoff or a lease run out.
public struct LibraryClock: Sendable {
    /// Seconds since 1970 (comparable across processes: a claim's lease is read by others).
    public var now: @Sendable () -> Double
    /// Waits `seconds`, or less when the calling task is cancelled.
    public var sleep: @Sendable (_ seconds: Double) async -> Void

    /// A clock of the caller's.
    public init(now: @escaping @Sendable () -> Double, sleep: @escaping @Sendable (_ seconds: Double) async -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The wall clock, and `Task.sleep`.
    public static let system = LibraryClock(
        now: { Date().timeIntervalSince1970 },
        sleep: { seconds in try? await Task.sleep(nanoseconds: UInt64(max(0, min(seconds, 1e9)) * 1e9)) })
}
