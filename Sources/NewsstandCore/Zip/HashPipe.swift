import Foundation

/// A running digest `HashPipe` computes: SHA-256 (`SHA256`), or a reader's `ContentDigest`.
public protocol HashPipeDigest: AnyObject {
    /// Adds bytes.
    func update(_ bytes: UnsafeRawBufferPointer)
    /// Finishes and returns the digest as lowercase hex.
    func finalizeHex() -> String
}

extension SHA256: HashPipeDigest {}

/// Digests computed on a thread of its own (`BlockingWork`), fed with copies of the caller's
/// chunks, so that hashing runs beside the caller's work on another core: a streamed download
/// hashes every byte twice (as its entry's, as the bundle's) besides its CRC-32 and its writes.
/// The chunks are gathered into blocks of `blockSize` (a hand-over per 16 KiB chunk cost more in
/// thread wake-ups than the hashing), and at most `depth` blocks wait, so memory stays bounded
/// (`depth` × `blockSize`); a full pipe makes the caller wait. One caller at a time.
/// `digest()` waits for what was given so far and starts a new digest (`make`) for what follows.
/// `close()` ends the thread; one that is not closed waits for work forever.
public final class HashPipe: @unchecked Sendable {
    // safe: the queue is `Locked`; the digests are made and used on the worker thread only, and
    // `result` is written there before `ready` is signalled and read after it.
    private enum Item {
        case bytes(Data)
        case mark
        case end
    }

    private let queue = Locked<(items: [Item], closed: Bool)>(([], false))
    private let available = DispatchSemaphore(value: 0)
    private let slots: DispatchSemaphore
    private let ready = DispatchSemaphore(value: 0)
    private var result = ""
    /// The block being gathered: the caller's only.
    private var pending = Data()
    private let blockSize: Int

    /// Starts the thread; `make` makes each digest, on it.
    public init(depth: Int = 4, blockSize: Int = 512 << 10, _ make: @escaping @Sendable () -> any HashPipeDigest) {
        slots = DispatchSemaphore(value: depth)
        self.blockSize = blockSize
        BlockingWork.start { [self] in work(make) }
    }

    /// Adds a copy of `bytes` to the current digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        if pending.isEmpty { pending.reserveCapacity(blockSize) }
        pending.append(contentsOf: bytes)
        if pending.count >= blockSize { flush() }
    }

    /// Hands the block gathered so far to the thread.
    private func flush() {
        guard !pending.isEmpty else { return }
        let block = pending
        pending = Data()
        slots.wait()
        if !enqueue(.bytes(block)) { slots.signal() }
    }

    /// The current digest of everything given since the last one, as lowercase hex, once the
    /// thread has hashed it; the next bytes start a new digest. Empty after `close()`.
    public func digest() -> String {
        flush()
        guard enqueue(.mark) else { return "" }
        ready.wait()
        return result
    }

    /// Ends the thread (what is queued is dropped).
    public func close() {
        pending = Data()
        _ = enqueue(.end)
    }

    private func enqueue(_ item: Item) -> Bool {
        let accepted = queue.withLock { queue -> Bool in
            guard !queue.closed else { return false }
            if case .end = item { queue.closed = true }
            queue.items.append(item)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    private func work(_ make: @Sendable () -> any HashPipeDigest) {
        var digest = make()
        while true {
            available.wait()
            let item = queue.withLock { $0.items.removeFirst() }
            switch item {
            case .bytes(let data):
                data.withUnsafeBytes { digest.update($0) }
                slots.signal()
            case .mark:
                result = digest.finalizeHex()
                digest = make()
                ready.signal()
            case .end:
                return
            }
        }
    }
}
