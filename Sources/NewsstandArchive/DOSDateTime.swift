import Foundation

/// A zip entry's modification time as its headers store it: an MS-DOS date and time, computed
/// in UTC.
///
/// libarchive computes this field with `localtime`, so the same archive written in two time
/// zones differs; `ZipOutput` writes this value over libarchive's instead, and nothing depends
/// on the process's `TZ`. The range and the two-second step are the format's: times before
/// 1980 become 1980-01-01 00:00:00 and times after 2107 become 2107-12-31 23:59:58, as
/// libarchive clamps them.
struct DOSDateTime: Equatable, Sendable {
    /// Hour, minute and second / 2, packed as `hhhhhmmmmmmsssss`.
    var time: UInt16
    /// Year − 1980, month and day, packed as `yyyyyyymmmmddddd`.
    var date: UInt16

    static let earliest = DOSDateTime(time: 0, date: 0x0021)
    static let latest = DOSDateTime(time: 0xbf7d, date: 0xff9f)

    init(time: UInt16, date: UInt16) {
        self.time = time
        self.date = date
    }

    init(utc moment: Date) {
        var seconds = time_t(ZipTimestamp.seconds(moment))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else {
            self = seconds < 0 ? .earliest : .latest
            return
        }
        let year = Int(parts.tm_year) + 1900
        if year < 1980 {
            self = .earliest
        } else if year > 2107 {
            self = .latest
        } else {
            date = UInt16(year - 1980) << 9 | UInt16(parts.tm_mon + 1) << 5 | UInt16(parts.tm_mday)
            time = UInt16(parts.tm_hour) << 11 | UInt16(parts.tm_min) << 5 | UInt16(parts.tm_sec / 2)
        }
    }
}

/// Whole seconds since 1970 for an entry's time, in a range every field can hold.
enum ZipTimestamp {
    /// `date` rounded down to whole seconds; a date that is not finite or lies beyond ±10,000
    /// years is clamped (a `Date` can hold values a `time_t` conversion would trap on).
    static func seconds(_ date: Date) -> Int64 {
        let limit = 315_569_520_000.0  // 10,000 years of 365.2422 days
        let value = date.timeIntervalSince1970
        guard value.isFinite else { return value < 0 ? -Int64(limit) : Int64(limit) }
        return Int64(min(max(value, -limit), limit).rounded(.down))
    }
}
