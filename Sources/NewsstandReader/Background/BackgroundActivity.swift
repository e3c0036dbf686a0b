/// Time the system gives the process to finish work it began in the background: what wraps the
/// install of a file a background transfer brought (verify, unpack, swap), which runs after the
/// system's completion handler of a wake was called, when the app may be suspended at any moment.
///
/// `begin(reason, expired)` starts an activity and returns what ends it; `expired` is called (at
/// most once, on any thread) when the system takes the time back. The install then stops at its
/// next safe point (before hashing, after hashing, after unpacking: never inside the short final
/// rename), leaves the received file where it was and nothing staged, and the next launch's
/// reconcile installs it. `system` is the platform's; an app or a test may give its own.
public struct BackgroundActivity: Sendable {
    /// Ends an activity.
    public typealias End = @Sendable () -> Void

    /// Begins an activity for `reason`; `expired` is called when its time is up.
    public let begin: @Sendable (_ reason: String, _ expired: @escaping @Sendable () -> Void) -> End

    /// An activity made of `begin`.
    public init(begin: @escaping @Sendable (_ reason: String, _ expired: @escaping @Sendable () -> Void) -> End) {
        self.begin = begin
    }

    /// No activity: the work runs for as long as the process does (a command-line program).
    public static let none = BackgroundActivity { _, _ in {} }
}
