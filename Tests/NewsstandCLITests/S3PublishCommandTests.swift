import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// `newsstand publish` of the sample magazine to a real S3 API (moto's server) through an
/// rclone remote given by environment variables alone, as a CI job runs it: verified, every
/// object served with the table's headers (`--catalog-max-age`), and neither S3 key in
/// anything it prints.
@Suite(.timeLimit(.minutes(3)), .tags(.needsServer)) struct S3PublishCommandTests {
    @Test func theSamplePublishedToS3IsVerifiedWithItsHeadersAndPrintsNoKey() async throws {
        let moto = try MotoS3()
        defer { moto.stop() }
        let work = try Shell.temporaryFolder("s3-command")
        let magazine = work.appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: Shell.repositoryRoot.appendingPathComponent("Samples/aurora"), to: magazine)
        let settings = magazine.appendingPathComponent("magazine.plist")
        try String(contentsOf: settings, encoding: .utf8)
            .replacingOccurrences(of: "http://localhost:8080/aurora/", with: moto.objectURL("aurora/").absoluteString)
            .write(to: settings, atomically: true, encoding: .utf8)
        let output = work.appendingPathComponent("out")
        let built = await InProcess.newsstand(["build", magazine.path, "--output", output.path, "--feed", "opds"])
        #expect(built.status == 0, "\(built.stderr)")

        let published = await InProcess.newsstand(
            ["publish", output.path, "--to", moto.destination("aurora"), "--verify", "--catalog-max-age", "30"],
            exactEnvironment: moto.rcloneEnvironment)
        #expect(published.status == 0, "\(published.stdout)\n\(published.stderr)")
        #expect(published.stdout.contains("verified: "), "\(published.stdout)")
        for text in [published.stdout, published.stderr] {
            #expect(!text.contains(MotoS3.secretKey) && !text.contains(MotoS3.accessKey))
        }
        let catalog = try await HTTPGet.send(moto.objectURL("aurora/issues.plist"))
        #expect(catalog.header("Cache-Control") == "public, max-age=30")
        #expect(catalog.header("Content-Type") == "application/x-plist")
        let feed = try await HTTPGet.send(moto.objectURL("aurora/opds.json"))
        #expect(feed.header("Cache-Control") == "public, max-age=30")
        #expect(feed.header("Content-Type") == "application/opds+json")
    }
}
