import Foundation

/// Where a command writes: standard output and error, with colour only on a terminal and
/// never when `NO_COLOR` is set.
public struct Console: Sendable {
    /// Whether standard output is a terminal.
    public var isTerminal: Bool
    /// Whether ANSI colours may be used.
    public var usesColor: Bool

    /// The console of this process.
    public static var standard: Console {
        let terminal = isatty(STDOUT_FILENO) == 1
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return Console(isTerminal: terminal, usesColor: terminal && !noColor)
    }

    /// Writes a line to standard output.
    public func out(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Writes a line to standard error.
    public func err(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes text to standard error without a newline (for progress bars).
    public func errRaw(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Wraps text in an ANSI style when colours are on.
    public func styled(_ text: String, _ code: String) -> String {
        usesColor ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
