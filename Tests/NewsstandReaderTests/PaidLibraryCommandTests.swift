import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// `newsstand library … download|update --access-command CMD` (issue 24, item 4): a small
/// script asks the tests' entitlement service (`entitlement_service.py`) for a link with its
/// token, as a publisher's app would; nginx serves the paid bundle only signed. No signature
/// and no token reach the command's output.
@Suite(.serialized, .timeLimit(.minutes(3)), .tags(.needsServer)) struct PaidLibraryCommandTests {
    static let token = "reader-token-3f9a2c"

    /// A script that asks `service` for a link with `token`; on a refusal it says so on
    /// standard error and exits 1.
    static func script(in folder: URL, service: EntitlementService, token: String) throws -> URL {
        let file = folder.appendingPathComponent("sign-\(token).sh")
        try """
        #!/bin/sh
        # $1: the issue's name, $2: the unsigned URL.
        curl -sf -G -H "Authorization: Bearer \(token)" --data-urlencode "url=$2" "\(service.signURL.absoluteString)" \
          || { echo "no subscription covers $1: \(service.signURL.absoluteString)?token=\(token)" >&2; exit 1; }
        """.write(to: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: file.path)
        return file
    }

    @Test func downloadWithAnAccessCommandFetchesThePaidIssueAndPrintsNoSecret() async throws {
        try await Testbed.with(secureLinkSecret: PaidDownloadTests.secret) { bed in
            try PaidLinkHostTests.publish(bed, [.init("b", day: 2, location: "paid/")], paid: ["b"])
            let work = try Shell.temporaryFolder("access")
            let secretFile = work.appendingPathComponent("secret")
            try Data((PaidDownloadTests.secret + "\n").utf8).write(to: secretFile)
            let service = try EntitlementService(
                secretFile: secretFile, paidBase: bed.nginx.baseURL.absoluteString + "paid/",
                tokens: [Self.token: ["b"], "someone-else-7d1e": ["x"]])
            defer { service.stop() }
            let good = try Self.script(in: work, service: service, token: Self.token)
            let refused = try Self.script(in: work, service: service, token: "someone-else-7d1e")
            let folder = bed.libraryFolder.path
            func library(_ arguments: [String]) throws -> Shell.Result {
                try Shell.run(Shell.newsstand, ["library", folder] + arguments)
            }
            #expect(try library(["refresh", bed.catalogURL.absoluteString]).status == 0)

            let none = try library(["download", "b"])
            #expect(none.status == 1)
            #expect(
                none.stderr
                    == "newsstand library: error: not entitled to issue 'b': the issue is paid and the library has no access provider; "
                    + "a paid issue is fetched with a signed link: give the program that gets one with --access-command CMD "
                    + "('newsstand library --help' says what it is run with)\n"
            )

            let denied = try library(["download", "b", "--access-command", refused.path])
            #expect(denied.status == 1)
            #expect(
                denied.stderr
                    == "newsstand library: error: not entitled to issue 'b': no subscription covers b: \(service.signURL.absoluteString)?…\n",
                "the reason is the script's first line, its query stripped")

            let usage = try library(["list", "--access-command", good.path])
            #expect(usage.status == 2)
            #expect(usage.stderr.contains("--access-command goes with download, update and resume only"))

            let downloaded = try library(["download", "b", "--access-command", good.path])
            #expect(downloaded.status == 0, "\(downloaded.stderr)")
            let listed = try library(["list", "--format", "json"])
            #expect(listed.stdout.contains("\"available\""))
            for output in [none, denied, usage, downloaded, listed] {
                for text in [output.stdout, output.stderr] {
                    #expect(!text.contains("md5=") && !text.contains("expires=") && !text.contains(Self.token))
                }
            }
            #expect(bed.requests("paid/b/b.zip").map(\.status) == [200])
            let log = service.stopAndReadLog()
            #expect(log.contains("200 b token0") && log.contains("403 b token1"), "\(log)")
        }
    }
}
