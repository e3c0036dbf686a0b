import Foundation
import NewsstandCore

/// Chunk buffers shared by every entry hasher of the process and reused: a fresh 256 KB allocation
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
