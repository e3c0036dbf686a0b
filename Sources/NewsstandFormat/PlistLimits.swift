/// How much of a property list newsstand reads: the file's size, the number of values and how
/// deep they nest. Every plist the tool reads comes from outside and may be huge; these limits
/// keep validating any input under 256 MB of memory (measured: see README, "Limits"), far above
/// what a magazine needs (an issue of 1,000 pages with ten photos each is about 40,000 values
/// and 2 MB).
public struct PlistLimits: Sendable, Equatable {
    /// The largest file read, in bytes.
    public var maximumBytes: Int
    /// The most values (strings, numbers, dates, data, booleans, arrays, dicts; keys not
    /// counted) one property list may hold.
    public var maximumValues: Int
    /// The deepest arrays and dicts may nest (the root is depth 1).
    public var maximumDepth: Int

    public init(maximumBytes: Int, maximumValues: Int, maximumDepth: Int) {
        self.maximumBytes = maximumBytes
        self.maximumValues = maximumValues
        self.maximumDepth = maximumDepth
    }

    /// The limits for every plist of a magazine: 8 MiB, 250,000 values, 64 levels.
    public static let standard = PlistLimits(maximumBytes: 8 << 20, maximumValues: 250_000, maximumDepth: 64)
}

extension PlistLimits {
    /// `250000` as `250,000`, for messages.
    public static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }

    /// A size in bytes as `8 MiB`, `8.4 MiB`, `812 KiB` or `96 bytes`, for messages.
    public static func size(_ bytes: Int64) -> String {
        func unit(_ value: Double, _ name: String) -> String {
            value == value.rounded() ? "\(Int(value)) \(name)" : String(format: "%.1f \(name)", value)
        }
        if bytes >= 1 << 20 { return unit(Double(bytes) / Double(1 << 20), "MiB") }
        if bytes >= 1 << 10 { return unit((Double(bytes) / Double(1 << 10)).rounded(), "KiB") }
        return "\(bytes) bytes"
    }
}
