/// A message a library logged through GLib, as ``ImagingEngine/dedicateProcess(messagesTo:threads:)``
/// writes it: one line of the byte 0x1E, the domain, a tab, the level, a tab and the text.
public struct LibraryMessage: Sendable, Equatable, Codable {
    /// How serious GLib's caller said it was.
    public enum Level: String, Sendable, Equatable, Codable {
        case error, critical, warning, message, info
    }

    /// Who logged it: "Poppler", "GLib-GObject", "GLib", …
    public var domain: String
    public var level: Level
    public var text: String

    /// A message as GLib's caller gave it.
    public init(domain: String, level: Level, text: String) {
        self.domain = domain
        self.level = level
        self.text = text
    }

    /// Reads one line (without its line feed); nil for a line written any other way (a library
    /// printing to standard error itself).
    public init?(line: Substring) {
        guard line.first == "\u{1E}" else { return nil }
        let fields = line.dropFirst().split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count == 3, let level = Level(rawValue: String(fields[1])) else { return nil }
        self.init(domain: String(fields[0]), level: level, text: String(fields[2]))
    }

    /// Whether the message says an operation went wrong rather than that an input is odd:
    /// GLib's own warnings and criticals (a property refused, a failed assertion) and anything
    /// logged as an error. poppler logs its complaints about a file as info.
    public var isFailure: Bool {
        switch level {
        case .error, .critical: return true
        case .warning: return domain.hasPrefix("GLib")
        case .message, .info: return false
        }
    }
}
