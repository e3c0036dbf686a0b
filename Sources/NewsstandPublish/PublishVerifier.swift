import Foundation
import NewsstandBuild
import NewsstandCore

/// Checks a publish as a reader would: the catalog at the destination parses, and every URL in
/// it (bundles and covers in both sizes) answers 200, bundles with the size the catalog gives,
/// and each bundle index (`ContentIndex`, both sizes) is fetched whole and must have the size
/// and SHA-256 the catalog gives, decode (`BundleIndex.decode`) and describe the bundle the
/// catalog lists (its size and SHA-256). When the destination serves an OPDS feed
/// (`opds.json`), it must parse, and every acquisition link and cover in it answers 200, with
/// the size the link gives (its EPUBs are checked this way: no other catalog links them).
///
/// A paid issue's bundles, indexes and EPUB are fetched as an entitled reader fetches them:
/// signed (`SignedURL`, valid for `signedLinkLifetime`) with `secret`; without one they cannot
/// be checked, which is a problem. Either way each paid bundle and EPUB is also asked for
/// unsigned, and must be refused: a host that serves it to anyone gives the issue away. Covers
/// stay public. Each request is bounded by the publish's timeouts; messages never carry
/// credentials, and name paid URLs without their signature (a signed URL is a key to the issue
/// while it lasts).
public struct PublishVerifier: Sendable {
    public var destination: any PublishDestination
    public var timeouts: PublishTimeouts
    /// The host's `secure_link_md5` secret, to sign requests for paid issues' content.
    public var secret: SigningSecret?

    /// How long the links the verifier signs stay valid.
    public static let signedLinkLifetime: Int64 = 600

    /// A verifier of what `destination` serves; with `secret`, paid issues' content too.
    public init(
        destination: any PublishDestination, timeouts: PublishTimeouts = PublishTimeouts(), secret: SigningSecret? = nil
    ) {
        self.destination = destination
        self.timeouts = timeouts
        self.secret = secret
    }

    /// Returns the problems found (empty when the publish is sound).
    public func verify() async -> [String] {
        let data: Data?
        do { data = try await destination.read("issues.plist", limit: BuiltMagazine.catalogLimit) } catch {
            return ["issues.plist cannot be read: \(error)"]
        }
        guard let data else { return ["issues.plist is missing at \(destination.description)"] }
        let entries: [CatalogEntry]
        do {
            let decoded = try Catalog.decode(data)
            entries = decoded.entries
            if !decoded.problems.isEmpty { return decoded.problems.map { "issues.plist: \($0)" } }
        } catch {
            return ["issues.plist does not parse: \(error)"]
        }
        var problems: [String] = []
        var checked: Set<String> = []
        for entry in entries {
            let paid = entry.access == .paid
            if paid, secret == nil, let store = destination as? RcloneDestination {
                // An object store's own presigned URLs (`rclone link`): what a bucket serves
                // signed, checked where the host's signing secret is not ours to hold.
                problems += await store.checkPresigned(entry, timeouts: timeouts)
            } else if paid, secret == nil {
                problems.append(
                    "'\(entry.name)' is a paid issue: its content (bundles, indexes, EPUB) is served only with a signature, so it is not verified; give the host's signing secret with --secret-file"
                )
            }
            for retina in [false, true] {
                if !paid || secret != nil {
                    problems += await check(
                        entry.contentURL(retina: retina), expectedSize: entry.contentSize(retina: retina), signed: paid)
                    if let index = entry.contentIndexURL(retina: retina) {
                        problems += await checkIndex(index, of: entry, retina: retina, signed: paid)
                    }
                }
                if paid { problems += await checkRefused(entry.contentURL(retina: retina)) }
                problems += await check(entry.coverURL(retina: retina), expectedSize: nil, signed: false)
                checked.formUnion([entry.contentURL(retina: retina), entry.coverURL(retina: retina)])
            }
        }
        problems += await verifyFeed(skipping: checked)
        return problems.map(Redacted.message)
    }

    /// The URL to request: `text` signed when `signed` (the secret is there: checked by the
    /// caller), else as it is.
    private func url(_ text: String, signed: Bool) -> Result<String, SigningError> {
        guard signed, let secret else { return .success(text) }
        return Result { () throws(SigningError) in try SignedURL.sign(text, validFor: Self.signedLinkLifetime, secret: secret) }
    }

    /// What a refused signed request means.
    private static func refusalHint(_ status: Int, signed: Bool) -> String {
        guard signed, status == 403 || status == 410 else { return "" }
        return " to the signed URL: the host's secure_link_md5 holds another secret or another path, or its clock is far off"
    }

    /// A paid issue's bundle or EPUB asked for without a signature must not be served.
    func checkRefused(_ text: String) async -> [String] {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return []  // reported by the signed check
        }
        let request = HTTPExchange.Request(method: "HEAD", url: url.absoluteString, headers: ["Cache-Control: no-cache"])
        let timeouts = timeouts
        switch await BlockingWork.run({ HTTPExchange.perform(request, timeouts: timeouts) }) {
        case .success(let response) where (200..<300).contains(response.status):
            return [
                "\(text): answers \(response.status) without a signature: the host gives this paid issue to anyone; protect \(IssueAccess.paidFolder)/ with secure_link (docs/publishing.md: Hosting paid issues)"
            ]
        case .success, .failure:
            return []  // refused (403 from secure_link), or unreachable, which the signed check reports
        }
    }

    /// Fetches an index (at most `BundleIndexLimits`' size) and checks it against the catalog.
    private func checkIndex(_ text: String, of entry: CatalogEntry, retina: Bool, signed: Bool) async -> [String] {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return ["\(text): not an http(s) URL"]
        }
        let target: String
        switch self.url(url.absoluteString, signed: signed) {
        case .success(let signed): target = signed
        case .failure(let error): return ["\(text): \(error)"]
        }
        let limits = BundleIndexLimits()
        var request = HTTPExchange.Request(method: "GET", url: target, headers: ["Cache-Control: no-cache"])
        request.bodyLimit = Int64(limits.maximumBytes)
        request.failsBeyondLimit = true
        let timeouts = timeouts
        let sent = request
        let result = await BlockingWork.run { HTTPExchange.perform(sent, timeouts: timeouts) }
        let body: Data
        switch result {
        case .failure(.timedOut(let kind, let seconds)):
            return ["\(text): \(PublishError.Reason.timedOut(kind, seconds: seconds))"]
        case .failure(.network(let message)): return ["\(text): \(message)"]
        case .failure(let failure): return ["\(text): \(failure)"]
        case .success(let response):
            guard response.status == 200 else {
                return ["\(text): HTTP \(response.status)\(Self.refusalHint(response.status, signed: signed))"]
            }
            body = response.body
        }
        if let size = entry.contentIndexSize(retina: retina), body.count != size {
            return ["\(text): \(body.count) bytes, the catalog says \(size)"]
        }
        if let sha256 = entry.contentIndexSHA256(retina: retina), SHA256.hex(of: body) != sha256 {
            return ["\(text): its SHA-256 is not the one the catalog gives"]
        }
        let index: BundleIndex
        do { index = try BundleIndex.decode(body, limits: limits) } catch { return ["\(text): \(error)"] }
        if let size = entry.contentSize(retina: retina), index.bundleSize != Int64(size) {
            return ["\(text): it describes a bundle of \(index.bundleSize) bytes, the catalog's has \(size)"]
        }
        if let sha256 = entry.contentSHA256(retina: retina), index.bundleSHA256 != sha256 {
            return ["\(text): it describes another bundle than the catalog's (SHA-256)"]
        }
        return []
    }

    /// Asks for `text` (signed when `signed`): it must answer 200, with `expectedSize` when given.
    func check(_ text: String, expectedSize: Int?, signed: Bool) async -> [String] {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return ["\(text): not an http(s) URL"]
        }
        let target: String
        switch self.url(url.absoluteString, signed: signed) {
        case .success(let signed): target = signed
        case .failure(let error): return ["\(text): \(error)"]
        }
        let request = HTTPExchange.Request(method: "HEAD", url: target, headers: ["Cache-Control: no-cache"])
        let timeouts = timeouts
        let result = await BlockingWork.run { HTTPExchange.perform(request, timeouts: timeouts) }
        switch result {
        case .failure(.timedOut(let kind, let seconds)):
            return ["\(text): \(PublishError.Reason.timedOut(kind, seconds: seconds))"]
        case .failure(.network(let message)): return ["\(text): \(message)"]
        case .failure(let failure): return ["\(text): \(failure)"]
        case .success(let response):
            guard response.status == 200 else {
                return ["\(text): HTTP \(response.status)\(Self.refusalHint(response.status, signed: signed))"]
            }
            if let expectedSize, let length = response.contentLength, length != Int64(expectedSize) {
                return ["\(text): \(length) bytes, the catalog says \(expectedSize)"]
            }
            return []
        }
    }
}
