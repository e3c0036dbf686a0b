import Foundation
import NewsstandCore

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
final class ProgressBar: Sendable {
    /// Locked so that updates from several jobs' threads draw whole lines.
    private let console: Locked<Console>
    private let label: String
    /// The label of the line drawn last.
    private let lastLabel = Locked<String?>(nil)
    private let enabled: Bool

    init(console: Console, label: String) {
        self.console = Locked(console)
        self.label = label
        enabled = console.errorIsTerminal
    }

    /// Draws `done` of `total`, after `label` (the bar's own when nil).
    func update(_ done: Int, of total: Int, label: String? = nil) {
        guard enabled, total > 0 else { return }
        let label = label ?? self.label
        let width = 30
        let filled = width * done / total
        let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
        // A line under another label is cleared first: that label may have been longer.
        let changed = lastLabel.withLock { last in
            defer { last = label }
            return last != nil && last != label
        }
        console.withLock { $0.errRaw("\r\(changed ? "\u{1B}[2K" : "")\(label) [\(bar)] \(done)/\(total)") }
    }

    func clear() {
        guard enabled else { return }
        console.withLock { $0.errRaw("\r\u{1B}[2K") }
    }
}

/// Human-readable byte counts.
enum ByteCount {
    static func format(_ bytes: Int64) -> String {
        let units = ["bytes", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : String(format: "%.1f %@", value, units[unit])
    }
}
