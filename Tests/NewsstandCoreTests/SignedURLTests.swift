import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// `SignedURL` and `SigningSecret`: the signature nginx's `secure_link_md5
/// "$secure_link_expires$uri <secret>"` checks, computed here and by Python's hashlib on its
/// own; URLs the host would check against another path are refused; the secret is read only
/// from a file others cannot read, and never shows.
@Suite struct SignedURLTests {
    let text = "c2VjcmV0LWZvci10aGUtdGVzdHMtMTIzNDU2Nzg="

    private func secretFile(_ contents: String, mode: Int = 0o600) throws -> URL {
        let file = try Shell.temporaryFolder("secret").appendingPathComponent("secret")
        try Data(contents.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        return file
    }

    @Test func aLinkValidForAWhileExpiresThatLongAfterNow() throws {
        let secret = try SigningSecret(text)
        let now = Date(timeIntervalSince1970: 1_800_000_000.7)
        let signed = try SignedURL.sign("https://h/paid/a/a.zip", validFor: 3_600, now: now, secret: secret)
        #expect(signed.hasSuffix("&expires=1800003600"))
        #expect(
            try SignedURL.sign("https://h/paid/a/a.zip", validFor: .max, now: now, secret: secret).hasSuffix(
                "&expires=\(Int64.max)"))
    }

    @Test(arguments: [
        ("ftp://h/paid/a/a.zip", SigningError.URLProblem.notHTTP), ("/paid/a/a.zip", .notHTTP), ("https:///paid/a.zip", .notHTTP),
        ("https://u:pw@h/paid/a/a.zip", .userInformation), ("https://h/paid/a/a.zip#x", .fragment),
        ("https://h/paid/../a-1/a.zip", .pathNotNormal), ("https://h/paid/./a/a.zip", .pathNotNormal),
        ("https://h/paid//a/a.zip", .pathNotNormal), ("https://h/paid/a%2Fb/a.zip", .pathNotNormal),
        ("https://h/paid/a/a%2.zip", .pathNotNormal), ("https://h/paid/a/a%00.zip", .pathNotNormal),
        ("https://h/paid/a/a.zip?md5=x", .alreadyHas(argument: "md5")),
        ("https://h/paid/a/a.zip?v=1&expires=9", .alreadyHas(argument: "expires")),
        ("https://h/" + String(repeating: "a", count: 8200), .tooLong),
    ])
    func urlsTheHostWouldCheckAgainstAnotherPathAreRefused(url: String, problem: SigningError.URLProblem) throws {
        let secret = try SigningSecret(text)
        #expect {
            try SignedURL.sign(url, expires: 1, secret: secret)
        } throws: { error in
            guard case .unsignableURL(let quoted, let found) = error as? SigningError else { return false }
            return found == problem && !quoted.contains("pw@")
        }
    }

    @Test func aSecretIsOneLineOfEnoughSafeCharactersFromAFileOnlyItsOwnerReads() throws {
        #expect(try SigningSecret.read(fromFile: secretFile(text + "\n").path).description == "<signing secret>")
        #expect(throws: Never.self) { try SigningSecret.read(fromFile: secretFile(text + "\r\n\n").path) }
        #expect(throws: Never.self) { try SigningSecret.read(fromFile: secretFile(text, mode: 0o640).path) }
        let cases: [(String, Int, (SigningError) -> Bool)] = [
            (text + "\n", 0o644, { if case .secretFileExposed(_, let mode) = $0 { mode & 0o777 == 0o644 } else { false } }),
            (text + "\n", 0o602, { if case .secretFileExposed = $0 { true } else { false } }),
            ("short\n", 0o600, { if case .badSecret(_, .tooShort(count: 5)) = $0 { true } else { false } }),
            ("", 0o600, { if case .badSecret(_, .tooShort(count: 0)) = $0 { true } else { false } }),
            (text + "$x\n", 0o600, { if case .badSecret(_, .character(position: 41)) = $0 { true } else { false } }),
            (
                "with space in it long enough\n", 0o600,
                { if case .badSecret(_, .character(position: 5)) = $0 { true } else { false } }
            ),
            (text + "\nsecond line\n", 0o600, { if case .badSecret(_, .severalLines) = $0 { true } else { false } }),
            (
                String(repeating: "a", count: 1025), 0o600,
                { if case .badSecret(_, .tooLong(count: 1025)) = $0 { true } else { false } }
            ),
            (String(repeating: "a", count: 5000), 0o600, { if case .secretFileTooLarge(_, 4096) = $0 { true } else { false } }),
        ]
        for (contents, mode, matches) in cases {
            let file = try secretFile(contents, mode: mode)
            #expect(
                performing: { try SigningSecret.read(fromFile: file.path) },
                throws: { error in
                    guard let error = error as? SigningError, matches(error) else { return false }
                    // No message quotes the secret, or any part of it longer than a few characters.
                    return !error.description.contains(String(contents.prefix(12))) || contents.count < 12
                })
        }
    }

    @Test func aSecretFileIsReadThroughALinkButNeverFromAFIFOOrAFolder() throws {
        let file = try secretFile(text)
        let folder = file.deletingLastPathComponent()
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        #expect(throws: Never.self) { try SigningSecret.read(fromFile: link.path) }
        let fifo = folder.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        #expect(throws: SigningError.secretFileUnreadable(.wrongKind(path: fifo.path, found: .fifo, expected: .regularFile))) {
            try SigningSecret.read(fromFile: fifo.path)
        }
        #expect(throws: SigningError.secretFileUnreadable(.wrongKind(path: folder.path, found: .folder, expected: .regularFile)))
        {
            try SigningSecret.read(fromFile: folder.path)
        }
        #expect(throws: SigningError.secretFileUnreadable(.missing(path: folder.path + "/none"))) {
            try SigningSecret.read(fromFile: folder.path + "/none")
        }
    }

    @Test func theSecretNeverShows() throws {
        let secret = try SigningSecret(text)
        var dumped = ""
        dump(secret, to: &dumped)
        for shown in [
            "\(secret)", String(describing: secret), String(reflecting: secret), dumped, "\([secret])",
            "\(Optional(secret) as Any)",
        ] {
            #expect(!shown.contains(text) && !shown.contains(String(text.prefix(8))), "\(shown)")
        }
        #expect(Mirror(reflecting: secret).children.isEmpty)
    }
}
