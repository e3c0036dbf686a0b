import Foundation
import NewsstandTestSupport
import Testing

/// Each message of a publisher's first hour names the problem and the fix, and says what
/// readers are served, against a real nginx and rclone. (A paid download without
/// `--access-command`: `PaidLibraryCommandTests`.)
@Suite(.serialized, .tags(.needsServer, .needsTools)) struct PublishMessageTests {
    @Test func aDestinationThisUserCannotWriteSaysSo() async throws {
        let site = try await PublishCommandTests.Site()
        defer { site.nginx.stop() }
        // Root writes anywhere but in sysfs; another user is refused a folder of mode 555.
        var destination = "/sys/newsstand-publish-test"
        if getuid() != 0 {
            let folder = try Shell.temporaryFolder("unwritable").appendingPathComponent("www")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
            destination = folder.path
        }
        let result = await site.publish(to: destination)
        #expect(result.status == 1)
        #expect(result.stderr.contains("this user cannot write to \(destination)"), "\(result.stderr)")
        #expect(result.stderr.contains("run publish as a user who may"), "\(result.stderr)")
        #expect(result.stderr.contains("or give another --to"))
        #expect(result.stderr.contains("Nothing that readers are served was changed"), "\(result.stderr)")
    }

    @Test func aURLWithoutWebDAVSaysSo() async throws {
        let site = try await PublishCommandTests.Site()
        defer { site.nginx.stop() }
        // The harness's nginx serves its root read-only (WebDAV is at /dav/), and refuses hidden
        // names there as docs/publishing.md says: the first PUT, of a hidden temporary name, is
        // answered 404, which says the same.
        let result = await site.publish(to: site.nginx.baseURL.absoluteString)
        #expect(result.status == 1)
        #expect(result.stderr.contains("HTTP 404 to PUT: the server does not accept WebDAV there"), "\(result.stderr)")
        #expect(result.stderr.contains("give the URL of a WebDAV folder with --to"))
        #expect(result.stderr.contains("Nothing that readers are served was changed"), "\(result.stderr)")
    }

    @Test func anUnknownRcloneRemoteNamesRcloneConfig() async throws {
        let site = try await PublishCommandTests.Site()
        defer { site.nginx.stop() }
        let result = await site.publish(to: "rclone:newsstand-no-such-remote:magazine")
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("no rclone remote of that name is configured: add it with 'rclone config'"), "\(result.stderr)"
        )
        #expect(result.stderr.contains("Nothing that readers are served was changed"), "\(result.stderr)")
    }

    @Test func aHostWithoutASchemeIsRefusedNotMadeAFolder() async throws {
        let site = try await PublishCommandTests.Site()
        defer { site.nginx.stop() }
        let work = try Shell.temporaryFolder("host-like")
        for text in ["localhost:8080/dav/", "127.0.0.1/dav/", "dav.example.com:443/magazine"] {
            let result = await site.publish(to: text)
            #expect(result.status == 1)
            #expect(result.stderr.contains("looks like a host"), "\(result.stderr)")
            #expect(result.stderr.contains("http://\(text)") && result.stderr.contains("./\(text)"), "\(result.stderr)")
            let first = String(text.prefix { $0 != "/" })
            #expect(!FileManager.default.fileExists(atPath: first), "a folder \(first) was made")
        }
        // Said as a folder, it is one.
        let folder = work.appendingPathComponent("localhost:8080").path
        let local = await site.publish(to: folder)
        #expect(local.status == 0, "\(local.stderr)")
    }
}
