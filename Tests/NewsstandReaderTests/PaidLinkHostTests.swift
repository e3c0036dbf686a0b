import Foundation
import NewsstandCore
import NewsstandReader
import NewsstandTestSupport
import Testing

/// The reader's signed links against nginx's own `secure_link` (`/paid/`): the provider's link
/// downloads, the unsigned URL and a forged one are refused by the host itself.
@Suite(.timeLimit(.minutes(1)), .tags(.needsServer)) struct PaidLinkHostTests {
    /// Publishes `specs` with `paid` of them sold, their files under `paid/` as well (a link to
    /// nginx's root: the location serves it).
    static func publish(_ bed: Testbed, _ specs: [Testbed.IssueSpec], paid: Set<String>) throws {
        let folder = bed.nginx.root.appendingPathComponent("paid")
        if !FileManager.default.fileExists(atPath: folder.path) {
            try FileManager.default.createSymbolicLink(atPath: folder.path, withDestinationPath: ".")
        }
        var entries = try bed.publish(specs)
        for i in entries.indices where paid.contains(entries[i].name) {
            entries[i].access = .paid
            entries[i].productID = "com.example.\(entries[i].name)"
        }
        try bed.writeCatalog(entries)
    }

    @Test func aPaidIssueDownloadsThroughTheProviderAndAFreeOneNeverAsks() async throws {
        try await Testbed.with(secureLinkSecret: PaidDownloadTests.secret) { bed in
            try Self.publish(bed, [.init("a", day: 1), .init("b", day: 2, location: "paid/")], paid: ["b"])
            let provider = PaidDownloadTests.SigningProvider()
            let library = try bed.library { $0.accessProvider = provider }
            try await library.refresh(from: bed.catalogURL)
            #expect(await library.issue(named: "b")?.access == .paid)
            #expect(await library.issue(named: "a")?.access == .free)
            try await library.download("a")
            #expect(provider.requests.current.isEmpty, "a free issue never asks")
            let issue = try await library.download("b")
            #expect(issue.status == .available)
            let unsigned = bed.nginx.baseURL.absoluteString + "paid/b/b.zip"
            #expect(
                provider.requests.current == [
                    AccessRequest(name: "b", productID: "com.example.b", url: URL(string: unsigned)!, resource: .bundle)
                ])
            #expect(bed.requests("paid/b/b.zip").map(\.status) == [200])
            // The host refuses the unsigned URL and a forged one: only the provider's link works.
            #expect(try Shell.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", unsigned]).stdout == "403")
            let forged = unsigned + "?md5=AAAAAAAAAAAAAAAAAAAAAA&expires=9999999999"
            #expect(try Shell.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", forged]).stdout == "403")
            await library.close()
        }
    }
}
