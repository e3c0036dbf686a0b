import Foundation
import NewsstandCore

/// The validators a server gave the served catalog: what a reader holding it revalidates with.
public struct CatalogValidators: Sendable, Equatable {
    /// `ETag`, as the server wrote it.
    public var etag: String?
    /// `Last-Modified`, as the server wrote it.
    public var lastModified: String?

    /// The conditional request headers a reader holding that catalog sends.
    var conditions: [String] {
        (etag.map { ["If-None-Match: \($0)"] } ?? []) + (lastModified.map { ["If-Modified-Since: \($0)"] } ?? [])
    }
}

/// `publish --verify`'s check that a replaced catalog is not taken for the one it replaced: a
/// reader holding the old catalog, asking with its validators, must be answered 200 with the
/// new bytes, not 304 (which it would be told for as long as both stayed).
extension PublishVerifier {
    /// The validators the catalog at `url` is served with now (a HEAD, through caches); nil when
    /// it is not served (or gives none).
    public func validators(of url: URL) async -> CatalogValidators? {
        let request = HTTPExchange.Request(method: "HEAD", url: url.absoluteString, headers: ["Cache-Control: no-cache"])
        let timeouts = timeouts
        guard case .success(let response) = await BlockingWork.run({ HTTPExchange.perform(request, timeouts: timeouts) }),
            response.status == 200, response.etag != nil || response.lastModified != nil
        else { return nil }
        return CatalogValidators(etag: response.etag, lastModified: response.lastModified)
    }

    /// Asks for the catalog at `url` as a reader holding the one it replaced would (with
    /// `previous`); the answer must be 200 with the bytes whose SHA-256 is `sha256`. Returns the
    /// problems (empty when it is so).
    public func verifyReplaced(_ url: URL, previous: CatalogValidators, sha256: String) async -> [String] {
        var request = HTTPExchange.Request(method: "GET", url: url.absoluteString, headers: previous.conditions)
        request.bodyLimit = BuiltMagazine.catalogLimit
        request.failsBeyondLimit = true
        let timeouts = timeouts
        let sent = request
        let said = "(ETag \(previous.etag ?? "none"), Last-Modified \(previous.lastModified ?? "none"))"
        switch await BlockingWork.run({ HTTPExchange.perform(sent, timeouts: timeouts) }) {
        case .failure(.timedOut(let kind, let seconds)):
            return ["\(url.absoluteString): \(PublishError.Reason.timedOut(kind, seconds: seconds))"]
        case .failure(.network(let message)): return ["\(url.absoluteString): \(message)"]
        case .failure(let failure): return ["\(url.absoluteString): \(failure)"]
        case .success(let response) where response.status == 304:
            return [
                "\(url.absoluteString): answers 304 Not Modified to the validators of the catalog it replaced \(said): readers holding the old catalog would not get the new one until it changes again"
            ]
        case .success(let response) where response.status != 200:
            return ["\(url.absoluteString): HTTP \(response.status) to a conditional request \(said)"]
        case .success(let response) where SHA256.hex(of: response.body) != sha256:
            return [
                "\(url.absoluteString): a conditional request \(said) is answered with other bytes than the catalog published (a cache in front of the server?)"
            ]
        case .success: return []
        }
    }
}
