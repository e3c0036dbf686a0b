import Foundation

#if canImport(CryptoKit)
    import CryptoKit

    /// The SHA-256 implementation `SHA256` streams into: CryptoKit on Apple platforms, whose SDKs
    /// have no libcrypto. Not thread-safe: one owner feeds it, in order.
    final class SHA256Engine {
        private var hasher = CryptoKit.SHA256()

        init() {}

        func update(_ bytes: UnsafeRawBufferPointer) {
            hasher.update(bufferPointer: bytes)
        }

        func finalize() -> [UInt8] { Array(hasher.finalize()) }
    }
#else
    import CCrypto

    /// The SHA-256 implementation `SHA256` streams into: libcrypto's EVP digest on Linux.
    /// Not thread-safe: one owner feeds it, in order.
    final class SHA256Engine {
        private let context: OpaquePointer

        init() {
            context = EVP_MD_CTX_new()
            EVP_DigestInit_ex(context, EVP_sha256(), nil)
        }

        deinit { EVP_MD_CTX_free(context) }

        func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress else { return }
            EVP_DigestUpdate(context, base, bytes.count)
        }

        func finalize() -> [UInt8] {
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, &digest, &length)
            return Array(digest.prefix(Int(length)))
        }
    }
#endif
