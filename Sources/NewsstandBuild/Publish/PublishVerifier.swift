import Foundation
import NewsstandFormat

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Checks a publish as a reader would: the catalog at the destination parses, and every URL in
/// it (bundles and covers in both sizes) answers 200, bundles with the size the catalog gives.
public struct PublishVerifier: Sendable {
    public var destination: any PublishDestination

    public init(destination: any PublishDestination) { self.destination = destination }

    /// Returns the problems found (empty when the publish is sound).
    public func verify() async -> [String] {
        let data: Data?
        do { data = try await destination.read("issues.plist") } catch { return ["issues.plist cannot be read: \(error)"] }
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
        return problems
    }

    private func check(_ text: String, expectedSize: Int?) async -> [String] {
        guard let url = URL(string: text) else { return ["\(text): not a URL"] }
        var request = URLRequest(url: url)
        request.httpMethod = "HEAD"
        request.cachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        request.timeoutInterval = 30
        do {
            let (_, response) = try await URLSession.shared.data(for: request)
            guard let http = response as? HTTPURLResponse else { return ["\(text): no HTTP response"] }
            guard http.statusCode == 200 else { return ["\(text): HTTP \(http.statusCode)"] }
            if let expectedSize, let length = http.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init),
                length != expectedSize
            {
                return ["\(text): \(length) bytes, the catalog says \(expectedSize)"]
            }
            return []
        } catch {
            return ["\(text): \(error.localizedDescription)"]
        }
    }
}
