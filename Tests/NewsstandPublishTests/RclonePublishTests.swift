import Foundation
import NewsstandBuild
import NewsstandBuildTestSupport
import NewsstandCore
import NewsstandPublish
import NewsstandTestSupport
import Testing

/// Publishing to an rclone remote (rclone's on-the-fly local backend, the same code path as an S3
/// or SFTP remote), and how an rclone destination shows. Publishing to a local folder is in
/// `PublishTests`, in the fast tier.
@Suite(.tags(.needsTools)) struct RclonePublishTests {
    let base = PublishTests()

    @Test func rcloneRemote() async throws {
        let fixture = try MagazineFixture(issues: ["f-1", "f-2"])
        let built = try Shell.temporaryFolder()
        let site = try Shell.temporaryFolder()
        try base.build(fixture, into: built)
        // rclone's on-the-fly local backend: the same code path as an S3 or SFTP remote.
        let destination = try Destinations.parse("rclone::local:\(site.path)")
        #expect(!destination.supportsAtomicMove)
        var report = try await Publisher.publish(built, to: destination)
        #expect(report.uploaded.count == 12)  // per issue: 2 bundles, 2 indexes, 2 covers
        try base.expectConsistent(site)
        report = try await Publisher.publish(built, to: destination)
        #expect(report.uploaded.isEmpty && report.replacedCatalogs.isEmpty)
        try fixture.image("f-1", "1-0.png", width: 11, height: 20)
        try FileManager.default.removeItem(at: fixture.url("issues/f-2"))
        try base.build(fixture, into: built)
        report = try await Publisher.publish(built, to: destination, prune: true)
        #expect(report.swapped == ["f-1/f-1.zip", "f-1/f-1@2x.zip", "f-1/f-1.index.json", "f-1/f-1.index@2x.json"])
        #expect(report.deleted.count == 6)
        try base.expectConsistent(site)
    }

    @Test func rcloneConnectionStringSecretsAreNotShown() throws {
        let destination = try Destinations.parse(
            "rclone::s3,provider=AWS,access_key_id=AKIAEXAMPLE,secret_access_key='s3cr3t:x':bucket/mag")
        #expect(destination.description == "rclone::s3,provider=***,access_key_id=***,secret_access_key=***:bucket/mag")
    }
}
