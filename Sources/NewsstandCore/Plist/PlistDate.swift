import Foundation

/// Property-list dates: `yyyy-MM-ddTHH:mm:ssZ`, always UTC, whole seconds.
///
/// Converted with civil-calendar arithmetic rather than `Calendar`: creating a Gregorian
/// calendar loads ICU's data, which cost a no-change rebuild more than its own work.
public enum PlistDate {
    /// Parses a plist date, or returns nil when the text is not one (including dates that do
    /// not exist, such as February 30).
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
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60,
            second < 60
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Formats a date as a plist date in UTC (fractions of a second are dropped).
    public static func format(_ date: Date) -> String {
        let (day, hour, minute, second) = components(date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", day.year, day.month, day.day, hour, minute, second)
    }

    /// The UTC date and time of day of `date`.
    public static func components(_ date: Date) -> (day: (year: Int, month: Int, day: Int), hour: Int, minute: Int, second: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let time = seconds - days * 86_400
        return (civil(fromDays: days), time / 3_600, time % 3_600 / 60, time % 60)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01 (`civil_from_days`).
    static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
