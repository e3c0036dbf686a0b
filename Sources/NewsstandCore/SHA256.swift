import Foundation

/// A streaming SHA-256 over `SHA256Engine` (CryptoKit on Apple platforms, whose SDKs have no
/// libcrypto; libcrypto on Linux). Not thread-safe: one owner feeds it, in order.
public final class SHA256 {
    private let engine = SHA256Engine()

    /// Starts a new digest.
    public init() {}

    /// Adds bytes to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        engine.update(bytes)
    }

    /// Adds data to the digest.
    public func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// Finishes the digest and returns it as lowercase hex.
    public func finalizeHex() -> String {
        Self.hex(engine.finalize())
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
