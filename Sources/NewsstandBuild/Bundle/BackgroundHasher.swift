import Foundation
import NewsstandCore
import NewsstandFormat

/// SHA-256 on its own thread: chunks are copied and hashed in order on a serial queue while
/// the caller goes on writing, so an archive's hash costs a core that would otherwise wait
/// (an issue's `@2x` bundle holds most of its bytes and is the build's critical path). At most
/// `depth` chunks wait at once, so memory stays bounded.
final class BackgroundHasher: @unchecked Sendable {
    private let queue = DispatchQueue(label: "newsstand.hash")
    private let slots: DispatchSemaphore
    private let hasher = SHA256()

    init(depth: Int = 8) {
        slots = DispatchSemaphore(value: depth)
    }

    /// Queues bytes for hashing (they are copied).
    func update(_ bytes: UnsafeRawBufferPointer) {
        slots.wait()
        let chunk = Data(bytes)
        queue.async {
            self.hasher.update(chunk)
            self.slots.signal()
        }
    }

    /// Waits for the queued bytes and returns the digest as lowercase hex.
    func finalizeHex() -> String {
        queue.sync { hasher.finalizeHex() }
    }
}
