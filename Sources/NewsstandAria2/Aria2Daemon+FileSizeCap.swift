import Foundation
import NewsstandCore
import NewsstandReader

/// A daemon writes no file much past the largest size its jobs' catalogs state, whether or not
/// a process of ours polls it: its file-size limit (`RLIMIT_FSIZE`, soft) is that size plus
/// `fileSizeMargin`, set when it starts and again whenever a job is handed over, and it ignores
/// `SIGXFSZ`, so a write past the limit fails (`EFBIG`: aria2 error 17, "File too large") and
/// ends that download alone. The next look at it finds the file past its job's size and reports
/// it too large (`Aria2Survey`). A job whose catalog states no size lifts the limit.
extension Aria2Daemon {
    /// How far past the largest size its jobs' catalogs state a daemon may write one file: room
    /// for aria2's own files (its session, control files) too.
    static let fileSizeMargin: Int64 = 1 << 20

    /// The limit for the jobs recorded in `files`: the largest expected size plus the margin
    /// (the margin alone for none); nil (no limit) when a job states no size.
    static func fileSizeCap(_ files: Aria2Files) -> Int64? {
        var largest: Int64 = 0
        for id in files.recordedIDs() {
            guard let record = files.record(of: id) else { continue }
            guard let size = record.expectedSize else { return nil }
            largest = max(largest, size)
        }
        let (sum, overflow) = largest.addingReportingOverflow(fileSizeMargin)
        return overflow ? nil : sum
    }

    /// The shell line that starts aria2c (`$0`, its arguments after) with `SIGXFSZ` ignored and
    /// the soft file-size limit at `cap` (rounded up to `ulimit`'s 512-byte blocks).
    static func limitedStart(cap: Int64?) -> String {
        let blocks = cap.map { String($0 / 512 + ($0 % 512 == 0 ? 0 : 1)) } ?? "unlimited"
        return "trap '' XFSZ; ulimit -S -f \(blocks) && exec \"$0\" \"$@\""
    }

    /// Sets the running daemon's limit for the jobs now recorded in `files` (after a job's
    /// record is written, before aria2 is given the job).
    func limitFileSize(for files: Aria2Files) throws(Aria2Error) {
        guard let pid = runningProcess() else { return }
        let cap = Self.fileSizeCap(files)
        guard Aria2Platform.setFileSizeLimit(of: pid, to: cap) else { throw .fileSizeLimit(code: errno) }
    }
}
