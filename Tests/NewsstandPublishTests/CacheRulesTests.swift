import NewsstandPublish
import Testing

/// The table itself: each kind by its path, as a CDN's path rules would decide.
@Suite struct CacheRulesTests {
    @Test func everyKindOfFileGetsItsHeaders() {
        let rules = CacheRules(catalogMaxAge: 30)
        let expected: [(String, String, String)] = [
            ("issues.plist", "public, max-age=30", "application/x-plist"),
            ("opds.json", "public, max-age=30", "application/opds+json"),
            ("atom.xml", "public, max-age=30", "application/atom+xml"),
            ("shelf.json", "public, max-age=30", "application/json"),
            ("a-1/a-1.3fa9c1e2.zip", "public, max-age=31536000, immutable", "application/zip"),
            ("a-1/a-1.3fa9c1e2@2x.zip", "public, max-age=31536000, immutable", "application/zip"),
            ("a-1/a-1.3fa9c1e2.index@2x.json", "public, max-age=31536000, immutable", "application/json"),
            ("a-1/cover.28580f68@2x.png", "public, max-age=31536000, immutable", "image/png"),
            ("a-1/a-1.3fa9c1e2.hpub", "public, max-age=31536000, immutable", "application/zip"),
            ("a-1/a-1.3fa9c1e2.epub", "public, max-age=31536000, immutable", "application/epub+zip"),
            ("a-1/a-1.zip", "no-cache", "application/zip"),
            ("a-1/cover.jpg", "no-cache", "image/jpeg"),
            ("paid/a-3/a-3.3fa9c1e2.zip", "private, max-age=31536000, immutable", "application/zip"),
            ("paid/a-3/a-3.zip", "private, no-cache", "application/zip"),
        ]
        for (path, cacheControl, contentType) in expected {
            #expect(rules.headers(for: path) == ObjectHeaders(cacheControl: cacheControl, contentType: contentType), "\(path)")
        }
        #expect(CacheRules(catalogMaxAge: 0).headers(for: "issues.plist").cacheControl == "no-cache")
    }
}
