import Foundation
import NewsstandCore

/// Where a command writes: standard output and error, or a sink that captures both (a command
/// run in process, by a test or a program). Colour only on a terminal and never when
/// `NO_COLOR` is set.
public struct Console: Sendable {
    /// The two streams a command writes to.
    public enum Stream: Sendable {
        case output, error
    }

    /// Whether standard output is a terminal.
    public var isTerminal: Bool
    /// Whether standard error is a terminal (progress bars are drawn only then).
    public var errorIsTerminal: Bool
    /// Whether ANSI colours may be used.
    public var usesColor: Bool
    private let sink: @Sendable (Stream, String) -> Void

    /// A console writing to `sink`.
    public init(
        isTerminal: Bool = false, errorIsTerminal: Bool = false, usesColor: Bool = false,
        sink: @escaping @Sendable (Stream, String) -> Void
    ) {
        self.isTerminal = isTerminal
        self.errorIsTerminal = errorIsTerminal
        self.usesColor = usesColor
        self.sink = sink
    }

    /// The console of this process: its standard output and error.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> Console {
        let terminal = isatty(STDOUT_FILENO) == 1
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Console(isTerminal: terminal, errorIsTerminal: isatty(STDERR_FILENO) == 1, usesColor: terminal && !noColor) {
            stream, text in
            (stream == .output ? FileHandle.standardOutput : FileHandle.standardError).write(Data(text.utf8))
        }
    }

    /// Writes a line to standard output.
    public func out(_ line: String) { sink(.output, line + "\n") }

    /// Writes a line to standard error.
    public func err(_ line: String) { sink(.error, line + "\n") }

    /// Writes text to standard error without a newline (for progress bars).
    public func errRaw(_ text: String) { sink(.error, text) }

    /// Wraps text in an ANSI style when colours are on.
    public func styled(_ text: String, _ code: String) -> String {
        usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// What a command run in process wrote, captured by its console.
public final class CapturedOutput: Sendable {
    private let texts = Locked((output: "", error: ""))

    /// Nothing captured yet.
    public init() {}

    /// A console (not a terminal, no colour) that writes here.
    public var console: Console {
        Console { stream, text in
            self.texts.withLock { texts in
                if stream == .output { texts.output += text } else { texts.error += text }
            }
        }
    }

    /// Everything written to standard output.
    public var stdout: String { texts.current.output }
    /// Everything written to standard error.
    public var stderr: String { texts.current.error }
}
