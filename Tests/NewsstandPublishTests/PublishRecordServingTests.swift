import Foundation
import NewsstandCore
import NewsstandPublish
import NewsstandTestSupport
import Testing

/// The publish record (`.newsstand-publish.json`: every file at the destination, paid issues'
/// among them) and the hidden names a publish uses mid-way sit in the served folder: the nginx
/// configuration docs/publishing.md gives refuses every hidden name, and the test harness's nginx
/// runs that very block (issue 35, item 8).
@Suite(.timeLimit(.minutes(2)), .tags(.needsServer)) struct PublishRecordServingTests {
    /// The HTTP status nginx answers `path` with.
    private func status(_ site: ServedSite, _ path: String) throws -> String {
        let url = site.nginx.baseURL.absoluteString + path
        let result = try Shell.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", url])
        guard result.status == 0 else { throw TestFailure("curl \(url) failed: \(result.stderr)") }
        return result.stdout
    }

    @Test func theRecordAndHiddenNamesAreNotServed() async throws {
        let site = try ServedSite(issues: ["f-1"], versioned: true)
        defer { site.stop() }
        _ = try await Publisher.publish(site.built, to: LocalFolderDestination(root: site.nginx.root))
        #expect(FileManager.default.fileExists(atPath: site.nginx.root.appendingPathComponent(PublishManifest.path).path))
        // What a publish killed mid-way can leave: a hidden upload beside its file.
        try Data("partial".utf8).write(to: site.nginx.root.appendingPathComponent("f-1/.f-1.0123abcd.zip.upload"))
        #expect(try status(site, PublishManifest.path) == "404")
        #expect(try status(site, "f-1/.f-1.0123abcd.zip.upload") == "404")
        #expect(try status(site, "slow/" + PublishManifest.path) == "404", "whatever location serves the folder")
        #expect(try status(site, "issues.plist") == "200", "the catalog is served")
    }
}
