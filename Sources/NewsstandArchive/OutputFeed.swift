import Foundation

/// Shows observers a file's bytes in file order, as they become final, read back from the
/// file (where they are still in the page cache) on threads of the feed's own, while the
/// writer goes on.
///
/// `ZipOutput` completes each local header after its entry's data, so bytes cannot be shown as
/// they are written. The writer only says how far the file is final (`advance(to:)`, a few
/// bytes of message per write); the feed's serial queue reads what is final in blocks of
/// `blockSize` and hands each block to every observer, each on a serial queue of its own: the
/// first on the feed's queue, the others on theirs, in parallel with it and with each other
/// (the archive's SHA-256 and its entries' are two independent streams over the same bytes:
/// one thread each, and no byte copied twice). A block stays in its buffer until every
/// observer has seen it: `depth` buffers, so memory is `depth` blocks whatever the file's
/// size (the feed lags behind the writer in the file, never in memory). 16 blocks (4 MiB)
/// let one observer run ahead of the other while the scheduler gives it a core (with 4 they
/// went in lockstep: bench/build 2-4% slower on two cores).
///
/// Sendable by hand: `observers[0]`, `buffers`, `blocks`, `shown` and `failure` are used on
/// `queue` only (the other observers get a buffer's address with its block),
/// each other observer on its own queue only, and a buffer is written only once every observer
/// is done with it (`slots`).
final class OutputFeed: @unchecked Sendable {
    static let blockSize = 1 << 18
    static let depth = 16
    private let observers: [(ZipOutputBlock) -> Void]
    private let queue = DispatchQueue(label: "newsstand.archive-feed")
    /// The other observers' queues, and for each the blocks it may still have to see.
    private let queues: [(queue: DispatchQueue, slots: DispatchSemaphore)]
    /// The ring, each buffer allocated when first used: a bundle of a few small entries (a
    /// daily's, of 10 KB images) never touches most of it.
    private var buffers: [UnsafeMutableRawBufferPointer?]
    /// Blocks read so far (which buffer is next).
    private var blocks = 0
    /// Bytes shown so far: the file from 0 up to here.
    private var shown: Int64 = 0
    /// The first failure to read back: the system's reason.
    private var failure: String?

    init(observers: [(ZipOutputBlock) -> Void]) {
        self.observers = observers
        queues = observers.indices.dropFirst().map { index in
            (DispatchQueue(label: "newsstand.archive-feed.\(index)"), DispatchSemaphore(value: Self.depth))
        }
        buffers = Array(repeating: nil, count: observers.count > 1 ? Self.depth : 1)
    }

    convenience init(observer: @escaping (ZipOutputBlock) -> Void) {
        self.init(observers: [observer])
    }

    deinit {
        // Every observer is done with the buffers before they go.
        for other in queues { other.queue.sync {} }
        BlockPool.shared.giveBack(buffers.compactMap { $0 })
    }

    /// Bytes of `fd` before `end` will not change any more: they are shown, in order, on the
    /// feed's queues, as part of `entry` (the bytes since the last advance are its local header
    /// and data) or of the central directory (nil). `fd` must stay open until `finish()` returns.
    func advance(to end: Int64, in fd: Int32, entry: (index: Int, layout: ZipEntryLayout)?) {
        queue.async { self.show(upTo: end, from: fd, entry: entry) }
    }

    /// Waits until every observer has seen everything advanced to; the system's reason on failure.
    func finish() -> String? {
        let failure = queue.sync { self.failure }
        for other in queues { other.queue.sync {} }
        return failure
    }

    private func show(upTo end: Int64, from fd: Int32, entry: (index: Int, layout: ZipEntryLayout)?) {
        guard failure == nil else { return }
        while shown < end {
            let slot = blocks % buffers.count
            // The buffer is free once every other observer has seen the block that used it
            // last: each sees blocks in order, and at most `depth` wait for it.
            for other in queues { other.slots.wait() }
            guard let buffer = buffers[slot] ?? BlockPool.shared.take() else {
                for other in queues { other.slots.signal() }
                failure = String(cString: strerror(errno))
                return
            }
            buffers[slot] = buffer
            guard let base = buffer.baseAddress else { return }
            let got = pread(fd, base, Int(min(Int64(Self.blockSize), end - shown)), off_t(shown))
            if got < 0, errno == EINTR {
                for other in queues { other.slots.signal() }
                continue
            }
            guard got > 0 else {
                for other in queues { other.slots.signal() }
                failure = got < 0 ? String(cString: strerror(errno)) : "the archive shrank while it was being written"
                return
            }
            let offset = shown
            let endsEntry = shown + Int64(got) == end
            blocks += 1
            shown += Int64(got)
            let address = Address(base)
            for (index, other) in queues.enumerated() {
                other.queue.async {
                    let bytes = UnsafeRawBufferPointer(start: address.pointer, count: got)
                    self.observers[index + 1](ZipOutputBlock(bytes: bytes, offset: offset, entry: entry, endsEntry: endsEntry))
                    other.slots.signal()
                }
            }
            let bytes = UnsafeRawBufferPointer(start: base, count: got)
            observers[0](ZipOutputBlock(bytes: bytes, offset: offset, entry: entry, endsEntry: endsEntry))
        }
    }
}

/// A buffer's address handed to another observer's queue with its block: `OutputFeed`'s
/// `slots` keep the buffer from being written again until that observer is done with it.
private struct Address: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
    init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
}

/// The feeds' blocks, kept for the next feed: a build makes a feed per bundle, two at a time,
/// and taking fresh blocks each time (from `malloc`, whose per-thread arenas kept them, as
/// they are freed on another thread than they were taken on: a build of 1,000 daily issues
/// peaked 6 MB higher; or from the system, which faults every page in again) cost memory or
/// time. Blocks are mapped from the system; at most `capacity` are kept (two bundles' rings),
/// the rest given back.
private final class BlockPool: @unchecked Sendable {  // safe: `spare` is used under `lock` only
    static let shared = BlockPool()
    private let lock = NSLock()
    private var spare: [UnsafeMutableRawBufferPointer] = []
    private let capacity = 2 * OutputFeed.depth

    /// A block of `OutputFeed.blockSize` bytes; nil when the system has no memory to give.
    func take() -> UnsafeMutableRawBufferPointer? {
        if let block = lock.withLock({ spare.popLast() }) { return block }
        let size = OutputFeed.blockSize
        guard let base = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), base != MAP_FAILED
        else { return nil }
        return UnsafeMutableRawBufferPointer(start: base, count: size)
    }

    /// Takes back blocks a feed no longer uses.
    func giveBack(_ blocks: [UnsafeMutableRawBufferPointer]) {
        let extra: [UnsafeMutableRawBufferPointer] = lock.withLock {
            spare += blocks
            guard spare.count > capacity else { return [] }
            defer { spare.removeLast(spare.count - capacity) }
            return Array(spare[capacity...])
        }
        for block in extra { munmap(block.baseAddress, block.count) }
    }
}
