import Foundation

/// The date format of HTTP headers (`Last-Modified`, `Date`, `If-Modified-Since`):
/// `Tue, 01 Dec 2026 10:00:00 GMT` (RFC 9110's IMF-fixdate), in whole seconds.
enum HTTPDate {
    /// A formatter for the one format; made per use (`DateFormatter` is not for sharing
    /// between threads, and a publish formats a handful of dates).
    private static func formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter
    }

    /// `seconds` since 1970 as an HTTP date.
    static func format(_ seconds: Int) -> String {
        formatter().string(from: Date(timeIntervalSince1970: Double(seconds)))
    }

    /// The seconds since 1970 an HTTP date names, or nil when `text` is not one.
    static func parse(_ text: String) -> Double? {
        formatter().date(from: text.trimmingCharacters(in: .whitespaces))?.timeIntervalSince1970
    }
}
