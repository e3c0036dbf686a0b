import Foundation

/// `SOURCE_DATE_EPOCH` (reproducible-builds.org): when set, the time a build gives an Atom
/// entry whose metadata changed, instead of the clock, so two builds of one commit agree.
enum SourceDateEpoch {
    /// The time to use: the variable's, else the clock's. A value that is not a whole number of
    /// seconds from 0 to 253,402,300,799 (the end of year 9999) is a usage error.
    static func now(_ environment: [String: String]) throws(UsageError) -> Date {
        guard let text = environment["SOURCE_DATE_EPOCH"] else { return Date() }
        guard let seconds = Int64(text), (0...253_402_300_799).contains(seconds) else {
            throw UsageError("SOURCE_DATE_EPOCH must be a whole number of seconds since 1970, found '\(text)'")
        }
        return Date(timeIntervalSince1970: Double(seconds))
    }
}
