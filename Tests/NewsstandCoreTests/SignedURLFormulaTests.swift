import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// The signature `SignedURL` computes is the documented formula, as Python's hashlib computes it on
/// its own. The rest of `SignedURL` and `SigningSecret` is in `SignedURLTests`, in the fast tier.
@Suite(.tags(.needsTools)) struct SignedURLFormulaTests {
    let base = SignedURLTests()

    /// The formula from its definition, in Python: MD5 of "<expires><decoded path> <secret>",
    /// base64url without padding.
    private func pythonSignature(_ url: String, expires: Int64) throws -> String {
        let result = try Shell.python(
            """
            import base64, hashlib, sys, urllib.parse
            path = urllib.parse.unquote_to_bytes(urllib.parse.urlsplit(sys.argv[1]).path)
            digest = hashlib.md5(sys.argv[2].encode() + path + b' ' + sys.argv[3].encode()).digest()
            print(base64.urlsafe_b64encode(digest).rstrip(b'=').decode())
            """, [url, String(expires), base.text])
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test(arguments: [
        "http://127.0.0.1:8080/paid/a-3/a-3.3fa9c1e2.zip",
        "https://cdn.example.com/magazine/paid/a-3/a-3.3fa9c1e2@2x.zip",
        "https://cdn.example.com/m%C3%A4g/paid/%C3%A9t%C3%A9/x.zip",
        "https://cdn.example.com/paid/a-3/a-3.index.json?v=2",
    ])
    func theSignatureIsTheDocumentedFormula(url: String) throws {
        let secret = try SigningSecret(base.text)
        let expires: Int64 = 1_796_000_000
        let signed = try SignedURL.sign(url, expires: expires, secret: secret)
        let expected = try pythonSignature(url, expires: expires)
        #expect(expected.count == 22)
        #expect(signed == url + (url.contains("?") ? "&" : "?") + "md5=\(expected)&expires=1796000000")
        // Another time or another secret is another signature.
        #expect(try SignedURL.sign(url, expires: expires + 1, secret: secret) != signed)
        #expect(try SignedURL.sign(url, expires: expires, secret: SigningSecret(String(base.text.reversed()))) != signed)
    }
}
