import Foundation
import NewsstandCore
import NewsstandBuild

/// Checks a publish as a reader would: the catalog at the destination parses, and every URL in
/// it (bundles and covers in both sizes) answers 200, bundles with the size the catalog gives,
/// and each bundle index (`ContentIndex`, both sizes) is fetched whole and must have the size
/// and SHA-256 the catalog gives, decode (`BundleIndex.decode`) and describe the bundle the
/// catalog lists (its size and SHA-256). When the destination serves an OPDS feed
/// (`opds.json`), it must parse, and every acquisition link and cover in it answers 200, with
/// the size the link gives (its EPUBs are checked this way: no other catalog links them).
/// Each request is bounded by the publish's timeouts; messages never carry credentials.
public struct PublishVerifier: Sendable {
    public var destination: any PublishDestination
    public var timeouts: PublishTimeouts

    public init(destination: any PublishDestination, timeouts: PublishTimeouts = PublishTimeouts()) {
        self.destination = destination
        self.timeouts = timeouts
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
            for retina in [false, true] {
                problems += await check(entry.contentURL(retina: retina), expectedSize: entry.contentSize(retina: retina))
                problems += await check(entry.coverURL(retina: retina), expectedSize: nil)
                checked.formUnion([entry.contentURL(retina: retina), entry.coverURL(retina: retina)])
                if let index = entry.contentIndexURL(retina: retina) {
                    problems += await checkIndex(index, of: entry, retina: retina)
                }
            }
        }
        problems += await verifyFeed(skipping: checked)
        return problems.map(Redacted.message)
    }

    /// The OPDS feed, when the destination serves one: each link not yet checked (a bundle
    /// is, through `issues.plist`, unless its size differs), with the size it gives.
    private func verifyFeed(skipping checked: Set<String>) async -> [String] {
        let data: Data?
        do { data = try await destination.read(OPDSLinks.fileName, limit: BuiltMagazine.catalogLimit) } catch {
            return ["\(OPDSLinks.fileName) cannot be read: \(error)"]
        }
        guard let data else { return [] }
        guard let feed = OPDSLinks.decode(data) else { return ["\(OPDSLinks.fileName): \(OPDSLinks.unreadable)"] }
        var problems: [String] = []
        for link in feed.links where link.size != nil || !checked.contains(link.href) {
            let found = await check(link.href, expectedSize: link.size.map { Int(clamping: $0) })
            problems += found.map { "\(OPDSLinks.fileName): \($0)" }
        }
        return problems
    }

    /// Fetches an index (at most `BundleIndexLimits`' size) and checks it against the catalog.
    private func checkIndex(_ text: String, of entry: CatalogEntry, retina: Bool) async -> [String] {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return ["\(text): not an http(s) URL"]
        }
        let limits = BundleIndexLimits()
        var request = HTTPExchange.Request(method: "GET", url: url.absoluteString, headers: ["Cache-Control: no-cache"])
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
            guard response.status == 200 else { return ["\(text): HTTP \(response.status)"] }
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

    private func check(_ text: String, expectedSize: Int?) async -> [String] {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return ["\(text): not an http(s) URL"]
        }
        let request = HTTPExchange.Request(method: "HEAD", url: url.absoluteString, headers: ["Cache-Control: no-cache"])
        let timeouts = timeouts
        let result = await BlockingWork.run { HTTPExchange.perform(request, timeouts: timeouts) }
        switch result {
        case .failure(.timedOut(let kind, let seconds)):
            return ["\(text): \(PublishError.Reason.timedOut(kind, seconds: seconds))"]
        case .failure(.network(let message)): return ["\(text): \(message)"]
        case .failure(let failure): return ["\(text): \(failure)"]
        case .success(let response):
            guard response.status == 200 else { return ["\(text): HTTP \(response.status)"] }
            if let expectedSize, let length = response.contentLength, length != Int64(expectedSize) {
                return ["\(text): \(length) bytes, the catalog says \(expectedSize)"]
            }
            return []
        }
    }
}
