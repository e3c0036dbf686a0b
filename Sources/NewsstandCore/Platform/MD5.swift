import Foundation

#if canImport(CryptoKit)
    import CryptoKit

    /// MD5, for the one place it is asked for: nginx's `secure_link_md5`, whose signature is the
    /// MD5 of a string holding the publisher's secret (a keyed hash the host checks; nothing here
    /// relies on MD5 resisting collisions). CryptoKit's `Insecure.MD5` on Apple platforms, whose
    /// SDKs have no libcrypto.
    enum MD5 {
        /// The 16-byte digest of `bytes`; never nil here (the Linux side can be refused MD5).
        static func digest(of bytes: [UInt8]) -> [UInt8]? {
            Array(Insecure.MD5.hash(data: bytes))
        }
    }
#else
    import CCrypto

    /// MD5, for the one place it is asked for: nginx's `secure_link_md5`, whose signature is the
    /// MD5 of a string holding the publisher's secret (a keyed hash the host checks; nothing here
    /// relies on MD5 resisting collisions). libcrypto's EVP digest on Linux.
    enum MD5 {
        /// The 16-byte digest of `bytes`; nil when libcrypto refuses MD5 (an OpenSSL set up for
        /// FIPS alone has none).
        static func digest(of bytes: [UInt8]) -> [UInt8]? {
            guard let context = EVP_MD_CTX_new() else { return nil }
            defer { EVP_MD_CTX_free(context) }
            var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard EVP_DigestInit_ex(context, EVP_md5(), nil) == 1,
                bytes.withUnsafeBytes({ EVP_DigestUpdate(context, $0.baseAddress, $0.count) }) == 1,
                EVP_DigestFinal_ex(context, &digest, &length) == 1, length == 16
            else { return nil }
            return Array(digest.prefix(16))
        }
    }
#endif
