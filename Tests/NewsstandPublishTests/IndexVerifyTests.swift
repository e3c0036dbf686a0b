import Foundation
import NewsstandBuild
import NewsstandCore
import NewsstandPublish
import NewsstandTestSupport
import Testing

/// `publish --verify` checks the bundle indexes (issue 14) as a reader would trust them: each
/// `ContentIndex` URL, both sizes, fetched from nginx, must have the catalog's size and SHA-256.
@Suite(.tags(.needsServer)) struct IndexVerifyTests {
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case none, editedSameSize, truncated, missing
        var testDescription: String { rawValue }
    }

    @Test(arguments: Damage.allCases) func verifyFetchesEveryIndexAndChecksItAgainstTheCatalog(damage: Damage) async throws {
        let site = try ServedSite(issues: ["f-1"], versioned: true)
        defer { site.stop() }
        let folder = LocalFolderDestination(root: site.nginx.root)
        _ = try await Publisher.publish(site.built, to: folder)
        let manifest = try #require(BuildManifest.read(in: site.built.appendingPathComponent("f-1")))
        let record = try #require(manifest.retinaIndex)
        let served = site.nginx.root.appendingPathComponent("f-1/\(record.file)")
        let url = site.nginx.baseURL.absoluteString + "f-1/\(record.file)"
        var good = try Data(contentsOf: served)
        switch damage {
        case .none: break
        case .editedSameSize:
            good[good.count - 3] ^= 0x01
            try good.write(to: served)
        case .truncated: try good.prefix(100).write(to: served)
        case .missing: try FileManager.default.removeItem(at: served)
        }
        let problems = await PublishVerifier(destination: folder).verify()
        let expected: [String] =
            switch damage {
            case .none: []
            case .editedSameSize: ["\(url): its SHA-256 is not the one the catalog gives"]
            case .truncated: ["\(url): 100 bytes, the catalog says \(record.size)"]
            case .missing: ["\(url): HTTP 404"]
            }
        #expect(problems == expected)
    }
}
