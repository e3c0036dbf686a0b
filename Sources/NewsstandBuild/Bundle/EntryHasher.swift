import Foundation
import NewsstandCore

/// The SHA-256 of each deflated entry of a bundle, from its content as it is packed, on a thread
/// of its own (the archive's, and its stored entries', are on the zip writer's feed thread:
/// `ArchiveHashes`): the packing thread copies each chunk and goes on. Entries are hashed one after another on one serial queue, so a bundle of many
/// entries costs one extra thread, and at most `depth` chunks wait at once (memory stays
/// bounded whatever the bundle's size).
final class EntryHasher: @unchecked Sendable {  // safe: `current` and `digests` are touched on the serial queue only
    private let chunks: ChunkQueue
    private var queue: DispatchQueue { chunks.queue }
    // Touched on `queue` only.
    private var current = SHA256()
    private var digests: [String] = []

    init(depth: Int = 8) {
        chunks = ChunkQueue(label: "newsstand.entry-hash", depth: depth)
    }

    /// Queues a chunk of the current entry (copied).
    func update(_ bytes: UnsafeRawBufferPointer) {
        chunks.feed(bytes) { self.current.update($0) }
    }

    /// Ends the current entry: its digest is kept, the next chunk starts a new entry.
    func endEntry() {
        queue.async {
            self.digests.append(self.current.finalizeHex())
            self.current = SHA256()
        }
    }

    /// Adds an entry whose bytes are all in memory (a config), hashed here.
    func add(_ data: Data) {
        let digest = SHA256.hex(of: data)
        queue.async { self.digests.append(digest) }
    }

    /// Waits for the queued work; the digests, one per entry, in order.
    func finish() -> [String] {
        queue.sync { digests }
    }
}
