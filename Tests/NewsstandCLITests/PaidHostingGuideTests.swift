import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// docs/publishing.md gives the nginx configuration `PaidIssueTests` run nginx with, compared as
/// text in this process.
@Suite struct PaidHostingGuideTests {
    /// The hosting configuration docs/publishing.md gives is the one these tests run nginx with.
    @Test func thePublishingGuideGivesTheConfigurationTheseTestsRun() throws {
        let readme = try String(contentsOf: Shell.repositoryRoot.appendingPathComponent("docs/publishing.md"), encoding: .utf8)
        #expect(readme.contains(Nginx.paidLocation(prefix: "/magazine/", secret: "<secret>")))
        #expect(readme.contains("openssl rand -base64 32 > signing.secret && chmod 600 signing.secret"))
    }
}
