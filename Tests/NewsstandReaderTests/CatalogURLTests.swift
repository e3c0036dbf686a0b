import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

@testable import NewsstandReader

/// A catalog's URLs resolve by one rule on every platform (`CatalogURL`): what a URL may not
/// hold is percent-encoded outside the host, before Foundation parses it, so that iOS 15 and
/// 16 (whose `URL(string:)` returns nil for such text) list the same issues as iOS 17 and Linux
/// (whose `URL(string:)` encodes it).
@Suite("Catalog URLs")
struct CatalogURLTests {
    static let base = URL(string: "https://example.com/magazine/issues.plist")!

    @Test(arguments: [
        ("issue-1.zip", "https://example.com/magazine/issue-1.zip"),
        ("issue 1.zip", "https://example.com/magazine/issue%201.zip"),
        ("héros.zip", "https://example.com/magazine/h%C3%A9ros.zip"),
        ("a|b^c`d{e}\"<>\\.zip", "https://example.com/magazine/a%7Cb%5Ec%60d%7Be%7D%22%3C%3E%5C.zip"),
        ("50%.zip", "https://example.com/magazine/50%25.zip"),
        ("5%2.zip", "https://example.com/magazine/5%252.zip"),
        ("already%20encoded%C3%A9.zip", "https://example.com/magazine/already%20encoded%C3%A9.zip"),
        ("../covers/c [1].png", "https://example.com/covers/c%20%5B1%5D.png"),
        ("https://cdn.example.com/x y.zip?sig=a b&e=1#p 2", "https://cdn.example.com/x%20y.zip?sig=a%20b&e=1#p%202"),
        ("//cdn.example.com/x.zip", "https://cdn.example.com/x.zip"),
        ("http://[::1]:8080/x.zip", "http://[::1]:8080/x.zip"),
        ("/root/x.zip", "https://example.com/root/x.zip"),
        ("x.zip#a#b", "https://example.com/magazine/x.zip#a%23b"),
    ])
    func textIsResolvedAsTheNewerFoundationResolvesIt(text: String, expected: String) throws {
        #expect(CatalogURL.resolve(text, against: Self.base)?.absoluteString == expected)
        // What reaches Foundation holds only what RFC 3986 allows, which the older parser takes.
        let encoded = try #require(CatalogURL.encoded(text))
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%".utf8)
        #expect(encoded.utf8.allSatisfy(allowed.contains), "\(encoded)")
    }

    /// A host or user part that would need encoding is refused everywhere: the newer
    /// Foundation would encode a name outside ASCII with IDNA, the older refuses it.
    @Test(arguments: [
        "https://bü.example/x.zip", "https://user name@example.com/x.zip", "https://ex ample.com/x.zip", "//b%zz/x.zip",
    ])
    func anAuthorityThatIsNotValidAsWrittenIsRefused(text: String) {
        #expect(CatalogURL.resolve(text, against: Self.base) == nil)
    }

    /// Text that is already a valid URL is not changed (so a URL `newsstand build` wrote,
    /// escaped, reaches Foundation as it is).
    @Test(arguments: [
        "https://example.com/a/b%20c.zip?x=1&y=%2F#top", "issue.2024-01.zip", "../up/x~y_z.png", "mailto:x@example.com",
    ])
    func validTextIsUnchanged(text: String) {
        #expect(CatalogURL.encoded(text) == text)
    }

    /// Another tool's catalog naming a bundle and a cover with a space and a letter outside
    /// ASCII, relative to the catalog: the issue is listed, its URLs are the encoded ones, and
    /// it downloads from the files served under those names.
    @Test func anEntryWithASpaceAndAnAccentIsListedAndDownloads() async throws {
        try await ScriptedBed.with { bed in
            let spec = ScriptedBed.IssueSpec("f-1", day: 1)
            let bundle = bed.serveBundle(spec.normal, at: "new issues/f 1 é.zip")
            bed.serve(Data("cover f-1".utf8), at: "new issues/cover é.png")
            var entry = CatalogEntry(
                name: "f-1", title: "Issue f-1", date: Date(timeIntervalSince1970: 86_400), cover: "new issues/cover é.png",
                content: "new issues/f 1 é.zip")
            entry.contentSize = bundle.count
            entry.contentSHA256 = SHA256.hex(of: bundle)
            try bed.writeCatalog([entry])
            let library = try bed.library()
            let result = try await library.refresh(from: bed.catalogURL)
            #expect(result.problems.isEmpty, "\(result.problems)")
            #expect(result.added == ["f-1"])
            let issue = try #require(await library.issue(named: "f-1"))
            let base = bed.baseURL.absoluteString
            let folder = base.hasSuffix("/") ? base : base + "/"
            #expect(issue.remoteContentURL.absoluteString == folder + "new%20issues/f%201%20%C3%A9.zip")
            #expect(issue.remoteCoverURL.absoluteString == folder + "new%20issues/cover%20%C3%A9.png")
            try await library.download("f-1")
            #expect(await library.issue(named: "f-1")?.status == .available)
        }
    }
}
