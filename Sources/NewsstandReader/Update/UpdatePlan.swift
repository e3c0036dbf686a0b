import Foundation
import NewsstandCore

/// What updating installed content to a new bundle takes: which entries are kept from the
/// installed files, which are fetched, and the byte ranges of the new bundle to fetch them with.
struct UpdatePlan: Sendable, Equatable {
    /// Entries whose installed file is the same (same name, size and SHA-256 in both indexes,
    /// and a regular file of that size on disk): linked into the new version.
    var kept: [BundleIndex.Entry]
    /// Entries to fetch: new, changed, or whose installed file is not what the index says.
    var fetched: [BundleIndex.Entry]
    /// The ranges of the new bundle that hold the fetched entries' local records, neighbours
    /// closer than the gap coalesced into one, in order.
    var ranges: [Range<Int64>]

    /// Bytes the ranges cover.
    var bytes: Int64 { ranges.reduce(0) { $0 + Int64($1.count) } }

    /// Records closer than this are fetched as one range: a request per record costs more than
    /// a few KiB of bytes nobody asked for.
    static let defaultGap: Int64 = 64 << 10

    /// Compares the installed index (and the files in `content`) with the new one.
    static func make(installed: BundleIndex, new: BundleIndex, content: OpenFolder, gap: Int64 = defaultGap) -> UpdatePlan {
        var old: [String: BundleIndex.Entry] = [:]
        for entry in installed.entries { old[entry.name] = entry }
        var kept: [BundleIndex.Entry] = []
        var fetched: [BundleIndex.Entry] = []
        for entry in new.entries {
            if let before = old[entry.name], before.sha256 == entry.sha256, before.size == entry.size,
                let status = try? content.status(at: entry.name), status.kind == .regularFile, status.size == entry.size
            {
                kept.append(entry)
            } else {
                fetched.append(entry)
            }
        }
        return UpdatePlan(kept: kept, fetched: fetched, ranges: coalesce(fetched.map(\.recordRange), gap: gap))
    }

    /// Joins ranges (in order, not overlapping: `BundleIndex.decode` checked) whose gap is at
    /// most `gap`.
    static func coalesce(_ ranges: [Range<Int64>], gap: Int64) -> [Range<Int64>] {
        var out: [Range<Int64>] = []
        for range in ranges {
            if let last = out.last, range.lowerBound - last.upperBound <= gap {
                out[out.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                out.append(range)
            }
        }
        return out
    }
}
