import Foundation
import NewsstandCore

/// A file a build read, with what identifies its content: the size and times that say it was
/// not touched since, and the XXH3-128 of its bytes for when the times moved but the content
/// may not have (a checkout, a restored CI cache, `touch`).
///
/// In the manifest it is one string, `"<xxh3> <size> <modified> <changed> <path>"` (the path
/// last, as it may hold spaces): a no-change build reads every input record of every issue,
/// and decoding them as JSON objects was a fifth of its time. Records of earlier versions (JSON
/// objects with a SHA-256) are still read, with no XXH3, so they never match on times alone.
public struct InputRecord: Sendable, Codable, Equatable {
    /// Path relative to the issue folder (`assets/1-0.png`).
    public var path: String
    public var size: Int64
    /// Modification time in seconds since 1970 (with fractions).
    public var modified: Double
    /// Status-change time (`ctime`) in seconds since 1970; nil in records of earlier versions.
    public var changed: Double?
    /// XXH3-128 of the bytes read, 32 hex digits; nil in records of earlier versions.
    public var xxh3: String?

    public init(path: String, size: Int64, modified: Double, changed: Double?, xxh3: String?) {
        self.path = path
        self.size = size
        self.modified = modified
        self.changed = changed
        self.xxh3 = xxh3
    }

    /// Whether `status` (of the file now) has the recorded size and both recorded times.
    func hasSameStatus(_ status: FileStatus) -> Bool {
        status.size == size && status.modified == modified && status.changed == changed && xxh3 != nil
    }

    private enum Keys: String, CodingKey { case path, size, modified }

    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            // Split on the bytes: String's own split walks grapheme clusters (most of the time
            // a no-change build spent on these records). A space is ASCII: it is never part of
            // another character's bytes.
            let fields = text.utf8.split(separator: 0x20, maxSplits: 4, omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self)
            }
            guard fields.count == 5, let size = Int64(fields[1]), size >= 0, let modified = Double(fields[2]),
                let changed = Double(fields[3]), fields[0].utf8.count == 32,
                fields[0].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
            else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an input record"))
            }
            self.init(path: fields[4], size: size, modified: modified, changed: changed, xxh3: fields[0])
            return
        }
        let keyed = try decoder.container(keyedBy: Keys.self)
        self.init(
            path: try keyed.decode(String.self, forKey: .path), size: try keyed.decode(Int64.self, forKey: .size),
            modified: try keyed.decode(Double.self, forKey: .modified), changed: nil, xxh3: nil)
    }

    public func encode(to encoder: any Encoder) throws {
        guard let xxh3, let changed else {
            // A record of an earlier version stays one: written as a string it would claim a
            // hash of zeros and a ctime of 0 it never had (found by the FuzzRecords round trip).
            var keyed = encoder.container(keyedBy: Keys.self)
            try keyed.encode(path, forKey: .path)
            try keyed.encode(size, forKey: .size)
            try keyed.encode(modified, forKey: .modified)
            return
        }
        var container = encoder.singleValueContainer()
        // Swift prints a Double with the fewest digits that read back as the same value.
        try container.encode("\(xxh3) \(size) \(modified) \(changed) \(path)")
    }
}
