import Foundation

/// Property-list dates: `yyyy-MM-ddTHH:mm:ssZ`, always UTC, whole seconds.
public enum PlistDate {
    /// Parses a plist date, or returns nil when the text is not one.
    public static func parse(_ text: String) -> Date? {
        let t = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let scalars = Array(t.utf8)
        guard scalars.count == 20, scalars[4] == UInt8(ascii: "-"), scalars[7] == UInt8(ascii: "-"),
            scalars[10] == UInt8(ascii: "T"), scalars[13] == UInt8(ascii: ":"), scalars[16] == UInt8(ascii: ":"),
            scalars[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                let c = scalars[i]
                guard c >= 48, c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return nil }
        var components = DateComponents()
        components.calendar = calendar
        components.timeZone = calendar.timeZone
        (components.year, components.month, components.day) = (year, month, day)
        (components.hour, components.minute, components.second) = (hour, minute, second)
        guard components.isValidDate, let date = components.date else { return nil }
        return date
    }

    /// Formats a date as a plist date in UTC.
    public static func format(_ date: Date) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ",
            c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// The Gregorian calendar in UTC, independent of the user's locale and time zone.
    public static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }()
}
