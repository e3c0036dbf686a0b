import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#else
    import CCrypto
#endif

/// A streaming SHA-256: CryptoKit's on Apple platforms (libcrypto is not part of their SDKs),
/// libcrypto's on Linux. Not thread-safe: one owner feeds it, in order.
public final class SHA256 {
    #if canImport(CryptoKit)
        private var hasher = CryptoKit.SHA256()
    #else
        private let context: OpaquePointer
    #endif

    /// Starts a new digest.
    public init() {
        #if !canImport(CryptoKit)
            context = EVP_MD_CTX_new()
            EVP_DigestInit_ex(context, EVP_sha256(), nil)
        #endif
    }

    #if !canImport(CryptoKit)
        deinit { EVP_MD_CTX_free(context) }
    #endif

    /// Adds bytes to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        #if canImport(CryptoKit)
            hasher.update(bufferPointer: UnsafeRawBufferPointer(start: base, count: bytes.count))
        #else
            EVP_DigestUpdate(context, base, bytes.count)
        #endif
    }

    /// Adds data to the digest.
    public func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Finishes the digest and returns it as lowercase hex.
    public func finalizeHex() -> String {
        #if canImport(CryptoKit)
            return Self.hex(Array(hasher.finalize()))
        #else
            var digest = [UInt8](repeating: 0, count: 32)
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, &digest, &length)
            return Self.hex(digest.prefix(Int(length)))
        #endif
    }

    /// The hex digest of a whole byte sequence.
    public static func hex(of data: Data) -> String {
        let hasher = SHA256()
        hasher.update(data)
        return hasher.finalizeHex()
    }

    /// The hex digest of a file, read in chunks (memory does not grow with the file).
    public static func hex(ofFileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(chunk)
        }
        return hasher.finalizeHex()
    }

    /// Whether `text` is a SHA-256 as manifests and catalogs record it: 64 lowercase hex digits.
    public static func isHex(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
