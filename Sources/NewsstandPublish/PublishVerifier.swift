import Foundation
import NewsstandCore
import NewsstandBuild

/// Checks a publish as a reader would: the catalog at the destination parses, and every URL in
/// it (bundles and covers in both sizes) answers 200, bundles with the size the catalog gives.
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
        for entry in entries {
            for retina in [false, true] {
                problems += await check(entry.contentURL(retina: retina), expectedSize: entry.contentSize(retina: retina))
                problems += await check(entry.coverURL(retina: retina), expectedSize: nil)
            }
        }
        return problems.map(Redacted.message)
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
