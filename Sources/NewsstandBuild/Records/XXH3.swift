import CXXHash
import Foundation

/// XXH3-128 (libxxhash), streaming: the change detector of the build records. It tells whether
/// an input's bytes are the ones recorded, many times faster than SHA-256; it is not a
/// cryptographic hash, and nothing published relies on it (the catalog keeps SHA-256).
final class XXH3 {
    private let state: OpaquePointer

    init() {
        // XXH3_createState only fails when malloc does; nothing goes on without memory.
        guard let state = XXH3_createState() else { fatalError("XXH3_createState: out of memory") }
        self.state = state
        XXH3_128bits_reset(state)
    }

    deinit { XXH3_freeState(state) }

    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        XXH3_128bits_update(state, base, bytes.count)
    }

    func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    func update(_ text: String) {
        var text = text
        text.withUTF8 { update(UnsafeRawBufferPointer($0)) }
    }

    /// The digest as 32 lowercase hex digits (canonical, big-endian: as `xxhsum -H2` prints it).
    func finalizeHex() -> String {
        Self.hex(XXH3_128bits_digest(state))
    }

    /// The digest of `data`.
    static func hex(of data: Data) -> String {
        let hasher = XXH3()
        hasher.update(data)
        return hasher.finalizeHex()
    }

    private static func hex(_ hash: XXH128_hash_t) -> String {
        var canonical = XXH128_canonical_t()
        XXH128_canonicalFromHash(&canonical, hash)
        // Not String(format:): that took 11% of a full build's CPU, one call per byte.
        let digits = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: &canonical.digest) { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(2 * bytes.count)
            for byte in bytes {
                out.append(digits[Int(byte >> 4)])
                out.append(digits[Int(byte & 0xF)])
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
