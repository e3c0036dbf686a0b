import Foundation
import NewsstandCore
import NewsstandReader

/// Why the aria2 engine could not do what it was asked: the daemon could not be started or
/// reached, or answered what aria2 does not answer. Never carries the RPC secret, a request or
/// a response body; what aria2 itself said is kept short and printable (`Aria2Text`).
public enum Aria2Error: Error, Equatable, Sendable {
    /// aria2 runs on Linux only (Apple platforms have background URLSessions).
    case notSupported
    /// No `aria2c` in `executable` or on `PATH` (Debian package `aria2`).
    case notInstalled(executable: String)
    /// `posix_spawn` failed with `code` (an `errno` value).
    case cannotStart(executable: String, code: Int32)
    /// The daemon exited, or did not answer on its port, within `seconds` of being started.
    case didNotStart(seconds: Double)
    /// The engine's folder (or a file in it) cannot be used.
    case folder(FileSystemError)
    /// The engine's folder path cannot be written into aria2's settings (a line break in it).
    case unsafeFolderPath(String)
    /// The bundle URL cannot be handed to aria2 (not http or https, no host, blanks or control
    /// characters in it, or longer than `Aria2Key.maxURLBytes`).
    case unsupportedURL(reason: String)
    /// The connection to the daemon's port failed (`code` is an `errno` value).
    case connection(port: Int, code: Int32)
    /// The daemon did not answer `method` within `seconds`.
    case timedOut(method: String, seconds: Double)
    /// The answer to `method` was larger than `limit` bytes.
    case responseTooLarge(method: String, limit: Int)
    /// The answer to `method` was not aria2's JSON-RPC over HTTP.
    case badResponse(method: String, reason: String)
    /// aria2 refused `method` (its JSON-RPC error code and message).
    case refused(method: String, code: Int, message: String)
    /// Another process held the engine's start lock for `seconds`.
    case lockTimeout(seconds: Double)
    /// The daemon's file-size limit could not be set (`errno`): no job is handed over unbounded.
    case fileSizeLimit(code: Int32)

    /// The failure a `TransferEngine` call reports for this error. An engine that cannot run
    /// at all (no aria2c, not Linux) is `unsupportedURL`: the one case that fails at once and is
    /// never retried, which is what such a failure needs (the name is the protocol's).
    var transferFailure: TransferFailure {
        switch self {
        case .notSupported, .notInstalled, .cannotStart, .unsupportedURL, .unsafeFolderPath:
            .unsupportedURL(reason: description)
        case .folder(let cause): .file(cause)
        case .timedOut(_, let seconds): .timedOut(seconds: seconds)
        case .connection(_, let code): .network(code: Int(code), reason: description)
        case .didNotStart, .responseTooLarge, .badResponse, .refused, .lockTimeout, .fileSizeLimit:
            .network(code: -1, reason: description)
        }
    }
}

extension Aria2Error: CustomStringConvertible {
    /// One line for people: what went wrong, with aria2's own words where it gave any.
    public var description: String {
        switch self {
        case .notSupported: "background downloads with aria2 run on Linux only"
        case .notInstalled(let executable): "'\(executable)' is not installed (Debian package aria2)"
        case .cannotStart(let executable, let code): "cannot start '\(executable)': \(String(cString: strerror(code)))"
        case .didNotStart(let seconds): "aria2c did not start within \(Self.seconds(seconds)) s"
        case .folder(let cause): "the aria2 folder: \(cause)"
        case .unsafeFolderPath(let path): "the aria2 folder '\(Aria2Text.printable(path))' has a line break in its path"
        case .unsupportedURL(let reason): reason
        case .connection(let port, let code): "cannot reach aria2c on port \(port): \(String(cString: strerror(code)))"
        case .timedOut(let method, let seconds): "aria2c did not answer \(method) within \(Self.seconds(seconds)) s"
        case .responseTooLarge(let method, let limit): "aria2c's answer to \(method) is larger than \(limit) bytes"
        case .badResponse(let method, let reason): "aria2c's answer to \(method) is not JSON-RPC: \(reason)"
        case .refused(let method, let code, let message): "aria2c refused \(method) (\(code)): \(message)"
        case .lockTimeout(let seconds): "another process held the aria2 folder for \(Self.seconds(seconds)) s"
        case .fileSizeLimit(let code): "cannot limit the size of aria2c's files: \(String(cString: strerror(code)))"
        }
    }

    /// Seconds as a short text: "30", "0.5".
    private static func seconds(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
