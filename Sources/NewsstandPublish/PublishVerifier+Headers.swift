import Foundation
import NewsstandCore

/// `publish --verify`'s check of the headers files are served with: each public file the
/// catalog lists, and the catalog itself, must come with the `Cache-Control` and `Content-Type`
/// `CacheRules` give its kind. A catalog served without `Cache-Control` is kept by a CDN for its
/// default time (a day on CloudFront): readers would not see a new issue for that long.
extension PublishVerifier {
    /// Returns the problems found (empty when every file is served with its headers). Files
    /// under `paid/` are asked for signed when there is a secret, and else not.
    public func verifyHeaders(catalogURL: URL, rules: CacheRules) async -> [String] {
        let base = catalogURL.deletingLastPathComponent().absoluteString
        guard let data = try? await destination.read("issues.plist", limit: BuiltMagazine.catalogLimit),
            let entries = try? Catalog.decode(data).entries
        else { return [] }  // verify() reports it
        var urls = [catalogURL.absoluteString]
        for entry in entries {
            for retina in [false, true] {
                urls.append(entry.coverURL(retina: retina))
                if entry.access != .paid || secret != nil {
                    urls.append(entry.contentURL(retina: retina))
                    if let index = entry.contentIndexURL(retina: retina) { urls.append(index) }
                }
            }
        }
        var problems: [String] = []
        for url in urls where url.hasPrefix(base) {
            let path = String(url.dropFirst(base.count))
            problems += await checkHeaders(url, expected: rules.headers(for: path), kind: CacheRules.kind(of: path))
        }
        return problems.map(Redacted.message)
    }

    /// One HEAD (signed for a paid file when there is a secret), compared with `expected`.
    private func checkHeaders(_ text: String, expected: ObjectHeaders, kind: CacheRules.PublishedKind) async -> [String] {
        let paid = kind == .paidContentNamed || kind == .paidFixedName
        var target = text
        if paid, let secret {
            guard let signed = try? SignedURL.sign(text, validFor: Self.signedLinkLifetime, secret: secret) else { return [] }
            target = signed
        }
        let request = HTTPExchange.Request(method: "HEAD", url: target)
        let timeouts = timeouts
        guard case .success(let response) = await BlockingWork.run({ HTTPExchange.perform(request, timeouts: timeouts) }),
            response.status == 200
        else { return [] }  // verify() reports what is not served
        var problems: [String] = []
        if Self.normalized(response.cacheControl) != Self.normalized(expected.cacheControl) {
            problems.append(
                "\(text): served with Cache-Control \(response.cacheControl.map { "'\($0)'" } ?? "none"), expected '\(expected.cacheControl)' (a \(kind.rawValue) file: docs/reference/cache-headers.md)"
            )
        }
        let type = response.contentType.map { String($0.prefix { $0 != ";" }) }
        let wanted = String(expected.contentType.prefix { $0 != ";" })
        if Self.normalized(type) != Self.normalized(wanted) {
            problems.append(
                "\(text): served with Content-Type \(response.contentType.map { "'\($0)'" } ?? "none"), expected '\(expected.contentType)'"
            )
        }
        return problems
    }

    /// A header's value for comparison: lowercased, without spaces.
    private static func normalized(_ value: String?) -> String {
        (value ?? "").lowercased().filter { !$0.isWhitespace }
    }
}
