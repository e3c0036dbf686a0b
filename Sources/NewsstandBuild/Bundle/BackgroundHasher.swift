import Foundation
import NewsstandCore
import NewsstandFormat

/// A serial queue fed with copies of the caller's chunks: each chunk is copied (from
/// `ChunkPool`) and handed to `body` on the queue while the caller goes on, and at most `depth`
/// chunks wait at once, so memory stays bounded. The hashers below run on one.
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

/// SHA-256 on its own thread: chunks are copied and hashed in order on a serial queue while
/// the caller goes on writing, so an archive's hash costs a core that would otherwise wait
/// (an issue's `@2x` bundle holds most of its bytes and is the build's critical path).
final class BackgroundHasher: @unchecked Sendable {  // safe: `hasher` is used on the serial chunk queue only
    private let chunks: ChunkQueue
    private let hasher = SHA256()

    init(depth: Int = 8) {
        chunks = ChunkQueue(label: "newsstand.hash", depth: depth)
    }

    /// Queues bytes for hashing (they are copied).
    func update(_ bytes: UnsafeRawBufferPointer) {
        chunks.feed(bytes) { self.hasher.update($0) }
    }

    /// Waits for the queued bytes and returns the digest as lowercase hex.
    func finalizeHex() -> String {
        chunks.queue.sync { hasher.finalizeHex() }
    }
}

/// Chunk buffers shared by every hasher of the process and reused: a fresh 256 KB allocation
/// per chunk had the allocator give pages back to the system and fault new ones in all the
/// time (bench/build: 15,000 to 40,000 page faults, 4,000 with the pool, and 5-10% less CPU).
/// At most `capacity` spare buffers are kept (8 MB: about as many as two bundles' hashers
/// have in flight at once).
final class ChunkPool: Sendable {
    static let shared = ChunkPool()
    static let chunkSize = 1 << 18
    private let spare = Locked<[[UInt8]]>([])
    private let capacity = 32

    /// A buffer holding `bytes` at its start (it may be longer).
    func copy(of bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var buffer = spare.withLock { $0.popLast() } ?? []
        if buffer.count < bytes.count { buffer = [UInt8](repeating: 0, count: max(bytes.count, Self.chunkSize)) }
        buffer.withUnsafeMutableBytes { $0.copyMemory(from: bytes) }
        return buffer
    }

    /// Takes back a buffer that is no longer used.
    func recycle(_ buffer: [UInt8]) {
        spare.withLock { spare in if spare.count < capacity { spare.append(buffer) } }
    }
}
