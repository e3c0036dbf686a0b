import Foundation

/// Signed, expiring URLs in the form nginx's `secure_link` module checks:
///
/// ```
/// secure_link $arg_md5,$arg_expires;
/// secure_link_md5 "$secure_link_expires$uri <secret>";
/// ```
///
/// `md5` is the MD5 of the expiry time (seconds since 1970, in decimal), the URL's path as
/// the host sees it (nginx's `$uri`: percent-escapes decoded) and, after one space, the
/// secret, encoded as base64url without padding; `expires` is the expiry time. No client
/// address goes in: a phone changes networks in the middle of a download. A link past its
/// time is refused by the host (nginx's `$secure_link` is then `0`), a wrong one too (empty).
///
/// The same function for `newsstand sign`, `newsstand publish --verify` and a publisher's own
/// entitlement service; it lives in `NewsstandCore` (Foundation and libcrypto's MD5, CryptoKit's
/// on Apple platforms), so linking it pulls in neither libxml2 nor libcurl. An app should not
/// hold the secret: its entitlement service signs, and the app fetches what it was given.
public enum SignedURL {
    /// The longest URL signed.
    public static let maximumLength = 8192

    /// `url` with `md5=<signature>&expires=<expires>` appended to its query (`?` when it has
    /// none), valid until `expires` (seconds since 1970).
    public static func sign(_ url: String, expires: Int64, secret: SigningSecret) throws(SigningError) -> String {
        let path = try signedPath(of: url)
        let signature = try self.signature(path: path, expires: expires, secret: secret)
        return url + (url.contains("?") ? "&" : "?") + "md5=\(signature)&expires=\(expires)"
    }

    /// `url` signed to stay valid for `seconds` from `now` (whole seconds).
    public static func sign(_ url: String, validFor seconds: Int64, now: Date = Date(), secret: SigningSecret)
        throws(SigningError)
        -> String
    {
        let (expires, overflow) = Int64(now.timeIntervalSince1970.rounded(.down)).addingReportingOverflow(max(0, seconds))
        return try sign(url, expires: overflow ? .max : expires, secret: secret)
    }

    /// The `md5` argument for `path` (percent-escapes decoded, as the host compares it) and
    /// `expires`: base64url, no padding, of MD5("<expires><path> <secret>").
    public static func signature(path: [UInt8], expires: Int64, secret: SigningSecret) throws(SigningError) -> String {
        let text = Array(String(expires).utf8) + path + [UInt8(ascii: " ")] + secret.bytes
        guard let digest = MD5.digest(of: text) else { throw .md5Unavailable }
        return Data(digest).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }

    /// The path the host will check, percent-escapes decoded: refused when the host would
    /// normalise it into another (dot or empty segments, an escaped `/`) or when the URL
    /// could not be signed at all.
    static func signedPath(of url: String) throws(SigningError) -> [UInt8] {
        func refuse(_ problem: SigningError.URLProblem) -> SigningError {
            .unsignableURL(url: Redacted.message(String(url.prefix(200))), problem)
        }
        guard url.utf8.count <= maximumLength else { throw refuse(.tooLong) }
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", components.host?.isEmpty == false
        else { throw refuse(.notHTTP) }
        guard components.user == nil, components.password == nil, !Redacted.hasUserInformation(url) else {
            throw refuse(.userInformation)
        }
        guard components.fragment == nil else { throw refuse(.fragment) }
        for item in components.percentEncodedQueryItems ?? [] where item.name == "md5" || item.name == "expires" {
            throw refuse(.alreadyHas(argument: item.name))
        }
        // The path as written: Foundation escapes a stray "%" (which a host refuses) on its own.
        let encoded = components.percentEncodedPath
        guard encoded.hasPrefix("/"), url.contains(encoded), let path = percentDecoded(encoded) else {
            throw refuse(.pathNotNormal)
        }
        // nginx merges "//" and resolves "." and ".." before `$uri`; a final "/" it keeps.
        var segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        if segments.last?.isEmpty == true { segments = segments.dropLast() }
        guard !segments.contains(where: { $0.isEmpty || $0.elementsEqual([0x2E]) || $0.elementsEqual([0x2E, 0x2E]) }) else {
            throw refuse(.pathNotNormal)
        }
        return path
    }

    /// The bytes of a percent-encoded path; nil for a malformed escape, an escaped `/` (the
    /// host would see another segment) or an escaped NUL.
    private static func percentDecoded(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "%") else {
                out.append(bytes[index])
                index += 1
                continue
            }
            guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                return nil
            }
            let byte = high << 4 | low
            guard byte != 0x2F, byte != 0 else { return nil }
            out.append(byte)
            index += 3
        }
        return out
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
