import Foundation
import NewsstandCore

/// A digest computed on a thread of its own (`BlockingWork`), fed with copies of the caller's
/// chunks: the whole bundle's SHA-256 of a streamed download runs beside the records' parsing,
/// inflating, CRC-32 and entry SHA-256 on the transport's thread, on the other core (every byte
/// is hashed twice: as the bundle's and as its entry's). At most `depth` chunks wait, so memory
/// stays bounded; a full pipe makes the caller wait.
///
/// `finalizeHex()` or `close()` ends the thread; one of them must be called (`BundleStream`
/// closes its pipe when the run ends, whichever way).
final class DigestPipe: ContentDigest, @unchecked Sendable {
    // safe: the queue is `Locked`; `digest` is touched by the worker thread only, until `finished`
    // is signalled, after which only `finalizeHex()` reads `result`.
    private let queue = Locked<(items: [Data?], closed: Bool)>(([], false))
    private let available = DispatchSemaphore(value: 0)
    private let slots: DispatchSemaphore
    private let finished = DispatchSemaphore(value: 0)
    private let digest: any ContentDigest
    private var result = ""

    init(_ digest: any ContentDigest, depth: Int = 32) {
        self.digest = digest
        slots = DispatchSemaphore(value: depth)
        BlockingWork.start { [self] in work() }
    }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        slots.wait()
        let copy = Data(bytes)
        let open = queue.withLock { queue -> Bool in
            guard !queue.closed else { return false }
            queue.items.append(copy)
            return true
        }
        if open { available.signal() } else { slots.signal() }
    }

    /// Waits for every chunk given so far to be hashed; the digest as lowercase hex.
    func finalizeHex() -> String {
        end()
        finished.wait()
        return result
    }

    /// Ends the thread without waiting for a digest (a run that will not use it).
    func close() { end() }

    private func end() {
        let first = queue.withLock { queue -> Bool in
            guard !queue.closed else { return false }
            queue.closed = true
            queue.items.append(nil)
            return true
        }
        if first { available.signal() }
    }

    private func work() {
        while true {
            available.wait()
            let item = queue.withLock { $0.items.removeFirst() }
            guard let item else {
                result = digest.finalizeHex()
                finished.signal()
                return
            }
            item.withUnsafeBytes { digest.update($0) }
            slots.signal()
        }
    }
}
