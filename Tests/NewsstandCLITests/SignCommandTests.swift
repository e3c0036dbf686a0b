import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// `newsstand sign` at the command line, without a host (PaidIssueTests has nginx accept its
/// links): `--expires` takes a whole number and a unit from 1 second to 3,650 days and sets
/// `expires=` that far from now; a bad duration, a missing option, a missing secret file or an
/// unsignable URL is refused with what is wrong, and never with the secret.
@Suite struct SignCommandTests {
    static let secret = "c2lnbi1jb21tYW5kLXRlc3RzLXNlY3JldC0xMjM0"
    static let bundle = "https://cdn.example.com/magazine/paid/a-3/a-3.3fa9c1e2.zip"

    private func secretFile() throws -> URL {
        let file = try Shell.temporaryFolder("sign").appendingPathComponent("signing.secret")
        try Data((Self.secret + "\n").utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return file
    }

    @Test(arguments: [("3600", 3_600), ("90s", 90), ("15m", 900), ("12h", 43_200), ("3650d", 315_360_000), ("1", 1)])
    func expiresIsThatLongFromNow(duration: String, seconds: Int64) async throws {
        let file = try secretFile()
        let before = Int64(Date().timeIntervalSince1970)
        let result = await InProcess.newsstand(["sign", Self.bundle, "--secret-file", file.path, "--expires", duration])
        let after = Int64(Date().timeIntervalSince1970)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        let link = result.stdout.trimmingCharacters(in: .newlines)
        let expires = try #require(link.split(separator: "=").last.flatMap { Int64($0) })
        #expect((before + seconds...after + seconds).contains(expires))
        #expect(link == (try SignedURL.sign(Self.bundle, expires: expires, secret: SigningSecret(Self.secret))))
    }

    @Test func aURLWithAQueryGetsTheArgumentsAfterIt() async throws {
        let file = try secretFile()
        let result = await InProcess.newsstand(["sign", Self.bundle + "?v=2", "--secret-file", file.path, "--expires", "5m"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix(Self.bundle + "?v=2&md5=") && result.stdout.contains("&expires="))
    }

    @Test(arguments: ["0", "0m", "3651d", "5w", "-5m", "1.5h", "m", "", "１h"])
    func aDurationOutsideTheRangeOrNotAWholeNumberAndAUnitIsAUsageError(duration: String) async throws {
        let file = try secretFile()
        let result = await InProcess.newsstand(["sign", Self.bundle, "--secret-file", file.path, "--expires", duration])
        #expect(result.status == 2, "\(duration): \(result.stdout)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("--expires needs a duration from 1 second to 3650 days"), "\(result.stderr)")
    }

    @Test func bothOptionsAreRequired() async throws {
        let file = try secretFile()
        let noSecret = await InProcess.newsstand(["sign", Self.bundle, "--expires", "5m"])
        #expect(noSecret.status == 2 && noSecret.stderr.contains("--secret-file"), "\(noSecret.stderr)")
        let noExpiry = await InProcess.newsstand(["sign", Self.bundle, "--secret-file", file.path])
        #expect(noExpiry.status == 2 && noExpiry.stderr.contains("--expires"), "\(noExpiry.stderr)")
        #expect(noSecret.stdout.isEmpty && noExpiry.stdout.isEmpty)
    }

    @Test func aMissingSecretFileOrAnUnsignableURLFailsSayingWhy() async throws {
        let file = try secretFile()
        let missing = file.deletingLastPathComponent().appendingPathComponent("none.secret")
        let unread = await InProcess.newsstand(["sign", Self.bundle, "--secret-file", missing.path, "--expires", "5m"])
        #expect(unread.status == 1 && unread.stdout.isEmpty)
        #expect(unread.stderr.contains("the secret file \(missing.path) cannot be read"), "\(unread.stderr)")
        let dotted = "https://cdn.example.com/magazine/paid/../a-2/a-2.zip"
        let refused = await InProcess.newsstand(["sign", dotted, "--secret-file", file.path, "--expires", "5m"])
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains("cannot sign \(dotted): its path has '.', '..' or empty segments"), "\(refused.stderr)")
        for output in [unread, refused] { #expect(!(output.stdout + output.stderr).contains(Self.secret)) }
    }
}
