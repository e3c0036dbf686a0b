import Foundation
import NewsstandCore
import NewsstandFormat

/// A serial queue fed with copies of the caller's chunks: each chunk is copied (from
/// `ChunkPool`) and handed to `body` on the queue while the caller goes on, and at most `depth`
/// chunks wait at once, so memory stays bounded. `EntryHasher` runs on one.
final class ChunkQueue: Sendable {
    let queue: DispatchQueue
    private let slots: DispatchSemaphore

    init(label: String, depth: Int) {
        queue = DispatchQueue(label: label)
        slots = DispatchSemaphore(value: depth)
    }

    /// Copies `bytes` and runs `body` with the copy on the queue, after the work queued before.
    func feed(_ bytes: UnsafeRawBufferPointer, to body: @escaping @Sendable (UnsafeRawBufferPointer) -> Void) {
        slots.wait()
        let chunk = ChunkPool.shared.copy(of: bytes)
        let count = bytes.count
        queue.async {
            chunk.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            ChunkPool.shared.recycle(chunk)
            self.slots.signal()
        }
    }
}
