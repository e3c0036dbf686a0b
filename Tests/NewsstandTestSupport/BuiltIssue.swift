import Foundation

/// What `newsstand build` wrote for one issue, read from its build manifest: bundle, index and cover
/// names carry a content hash by default (`a-1.3fa9c1e2.zip`), so tests look them up.
public struct BuiltIssue {
    /// The normal bundle, the `@2x` bundle, the cover and the `@2x` cover: file names in the issue's folder.
    public let bundle: String
    public let retinaBundle: String
    public let cover: String
    public let retinaCover: String
    /// The bundles' indexes (issue 14).
    public let index: String
    public let retinaIndex: String

    /// The six file names: bundles, their indexes, covers.
    public var files: [String] { [bundle, retinaBundle, index, retinaIndex, cover, retinaCover] }

    /// Reads `<output>/<issue>/.newsstand/manifest.json`.
    public init(_ issue: String, in output: URL) throws {
        let url = output.appendingPathComponent("\(issue)/.newsstand/manifest.json")
        guard let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] else {
            throw TestFailure("\(url.path) is not a JSON object")
        }
        func file(_ key: String) throws -> String {
            guard let name = (manifest[key] as? [String: Any])?["file"] as? String else {
                throw TestFailure("\(url.path) has no \(key).file")
            }
            return name
        }
        bundle = try file("bundle")
        retinaBundle = try file("retinaBundle")
        cover = try file("cover")
        retinaCover = try file("retinaCover")
        index = try file("index")
        retinaIndex = try file("retinaIndex")
    }
}
