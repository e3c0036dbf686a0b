import Foundation

/// Shows an observer a file's bytes in file order, as they become final, read back from the
/// file (where they are still in the page cache) on a thread of the feed's own, while the
/// writer goes on.
///
/// `ZipOutput` completes each local header after its entry's data, so bytes cannot be shown as
/// they are written. The writer only says how far the file is final (`advance(to:)`, a few
/// bytes of message per write); the feed's serial queue reads what is final in blocks of
/// `blockSize` into its one buffer and hands each to the observer there. Reading back and
/// hashing were on the writing thread, the build's critical path (the `@2x` bundle holds most
/// of an issue's bytes): they now take the second core. Memory is the one buffer whatever the
/// file's size: the feed lags behind the writer in the file, never in memory.
final class OutputFeed: @unchecked Sendable {  // safe: `observer`, `buffer`, `shown` and `failure` are used on `queue` only
    static let blockSize = 1 << 18
    private let observer: (ZipOutputBlock) -> Void
    private let queue = DispatchQueue(label: "newsstand.archive-feed")
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: OutputFeed.blockSize, alignment: 16)
    /// Bytes shown so far: the file from 0 up to here.
    private var shown: Int64 = 0
    /// The first failure to read back: the system's reason.
    private var failure: String?

    init(observer: @escaping (ZipOutputBlock) -> Void) {
        self.observer = observer
    }

    deinit { buffer.deallocate() }

    /// Bytes of `fd` before `end` will not change any more: they are shown, in order, on the
    /// feed's queue, as part of `entry` (the bytes since the last advance are its local header
    /// and data) or of the central directory (nil). `fd` must stay open until `finish()` returns.
    func advance(to end: Int64, in fd: Int32, entry: (index: Int, layout: ZipEntryLayout)?) {
        queue.async { self.show(upTo: end, from: fd, entry: entry) }
    }

    /// Waits until everything advanced to has been shown; the system's reason on failure.
    func finish() -> String? {
        queue.sync { failure }
    }

    private func show(upTo end: Int64, from fd: Int32, entry: (index: Int, layout: ZipEntryLayout)?) {
        guard failure == nil, let base = buffer.baseAddress else { return }
        while shown < end {
            let got = pread(fd, base, Int(min(Int64(buffer.count), end - shown)), off_t(shown))
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else {
                failure = String(cString: strerror(errno))
                return
            }
            guard got > 0 else {
                failure = "the archive shrank while it was being written"
                return
            }
            let block = UnsafeRawBufferPointer(start: base, count: got)
            observer(ZipOutputBlock(bytes: block, offset: shown, entry: entry, endsEntry: shown + Int64(got) == end))
            shown += Int64(got)
        }
    }
}
