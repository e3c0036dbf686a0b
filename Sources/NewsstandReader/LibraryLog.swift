import Foundation
import NewsstandCore

/// Where the library's log lines go (`LibraryConfiguration.log`), with a level each. Background
/// transfers can only be understood from logs, so the library says what it does; and since an
/// app ships these lines (to the system log, to a crash reporter), no message carries a URL's
/// query, fragment or user information (a signed CDN URL holds its secret in the query): every
/// line passes `Redacted.withoutURLSecrets` before it reaches the sink.
public struct LibraryLog: Sendable {
    /// How much a line matters.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// Each request, attempt and byte count: for following one transfer.
        case debug
        /// What changed: an issue available, removed, refreshed.
        case info
        /// Something went wrong and was handled: a retry, a fallback, a cover not fetched.
        case notice
        /// Something failed: a download, a commit, a row of the state left out.
        case error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        /// "debug", "info", "notice" or "error".
        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .notice: "notice"
            case .error: "error"
            }
        }
    }

    /// Lines below this level are not made at all.
    public var minimumLevel: Level
    private let sink: @Sendable (Level, String) -> Void

    /// A log handing each line at `minimumLevel` or above to `sink`, with its level.
    public init(minimumLevel: Level = .info, _ sink: @escaping @Sendable (Level, String) -> Void) {
        self.minimumLevel = minimumLevel
        self.sink = sink
    }

    /// A log writing each line as `newsstand-reader: <message>` to `write`: what a command-line
    /// program prints (`.lines { print($0) }`).
    public static func lines(minimumLevel: Level = .info, _ write: @escaping @Sendable (String) -> Void) -> LibraryLog {
        LibraryLog(minimumLevel: minimumLevel) { _, message in write("newsstand-reader: \(message)") }
    }

    /// A log that keeps nothing.
    public static let silent = LibraryLog(minimumLevel: .error) { _, _ in }

    /// The platform's log: `os.Logger` (subsystem `Newsstand`, category `reader`) on Apple
    /// platforms, every level (the system keeps debug lines only while asked to); nothing on
    /// Linux, where a program picks its own (`lines`).
    public static var system: LibraryLog { SystemLog.log }

    /// Logs `message` at `level`, its URLs' secrets cut out.
    public func callAsFunction(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= minimumLevel else { return }
        sink(level, Redacted.withoutURLSecrets(message()))
    }
}
