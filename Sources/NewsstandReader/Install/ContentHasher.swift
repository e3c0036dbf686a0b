import Foundation
import NewsstandCore

/// Computes the digest a downloaded bundle and a cover are checked against (the catalog's
/// `ContentSHA256`, `CoverSHA256`): a seam, so an app can bring its own (CryptoKit's, a
/// hardware one). The library feeds a digest the bytes in order, from one thread at a time.
public protocol ContentHasher: Sendable {
    /// A new digest.
    func start() -> any ContentDigest
}

/// A digest being computed: bytes in with `update(_:)`, lowercase hex out with `finalizeHex()`
/// (`NewsstandCore.HashPipeDigest`, which the streamed download's digests run on a thread of
/// their own as).
public typealias ContentDigest = HashPipeDigest

/// SHA-256 (`NewsstandCore.SHA256`: CryptoKit on Apple platforms, libcrypto on Linux).
public struct SHA256Hasher: ContentHasher {
    /// A SHA-256 hasher.
    public init() {}
    public func start() -> any ContentDigest { SHA256() }
}

extension ContentHasher {
    /// The digest of the file at `url`, read in chunks; blocking.
    func digest(ofFileAt url: URL) throws(FileSystemError) -> String {
        let digest = start()
        try FileCopy.copy(try OpenFile.open(url), to: nil) { digest.update($0) }
        return digest.finalizeHex()
    }
}
