import Foundation

/// A value shared between threads, guarded by a lock: every read and write goes through
/// `withLock`, so no access can forget the lock (what SwiftPM's `ThreadSafeBox` is).
/// `Synchronization.Mutex` would do the same job but needs iOS 18 / macOS 15, above the
/// reader's platforms.
///
/// Keep the closures short: they run with the lock held, and must never wait for another task
/// or take a second lock.
public final class Locked<Value>: @unchecked Sendable {  // safe: `value` is only touched under `lock`
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    public func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value as it is now.
    public var current: Value { withLock { $0 } }

    /// Replaces the value and returns the one it had.
    @discardableResult
    public func exchange(_ newValue: Value) -> Value {
        withLock { value in
            let old = value
            value = newValue
            return old
        }
    }
}
