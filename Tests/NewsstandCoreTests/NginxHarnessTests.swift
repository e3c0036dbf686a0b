import Foundation
import NewsstandTestSupport
import Testing

/// The test harness's nginx is the one a test talks to, and its log is complete when read: a
/// port that another server took between `Nginx.freePort()` and nginx's bind is not mistaken
/// for this nginx's (CI once read an empty access log because a test's requests had gone to
/// another test's nginx), and `requests()` waits for its own barrier request's line.
@Suite(.tags(.needsServer)) struct NginxHarnessTests {
    @Test func aPortTakenBeforeNginxBindsItIsNotMistakenForThisOnesPort() throws {
        let other = try Nginx()
        defer { other.stop() }
        var offered = [other.port]
        let nginx = try Nginx(secureLinkSecret: nil) { offered.isEmpty ? try Nginx.freePort() : offered.removeFirst() }
        defer { nginx.stop() }
        #expect(nginx.port != other.port)

        let fetched = try Shell.python(
            "import sys, urllib.request\ntry: urllib.request.urlopen(sys.argv[1])\nexcept Exception as e: print(e)",
            [nginx.baseURL.absoluteString + "probe"])
        #expect(fetched.stdout.contains("404"), "\(fetched.stdout)\(fetched.stderr)")
        #expect(nginx.requests(for: "/probe").map(\.status) == [404])
        #expect(other.requests().isEmpty, "the other nginx was not asked")
    }

    @Test func requestsWaitsForABarrierLineAndLeavesItOut() throws {
        let nginx = try Nginx()
        defer { nginx.stop() }
        #expect(nginx.requests().isEmpty)
        #expect(nginx.requests().isEmpty)
        let log = try String(contentsOf: nginx.prefix.appendingPathComponent("logs/access.log"), encoding: .utf8)
        let lines = log.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("204 0 GET /.log-barrier/") }, "\(log)")
    }
}
