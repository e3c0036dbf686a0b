import Foundation
import NewsstandCore
import NewsstandTestSupport
import Testing

/// docs/publishing.md's refusal of hidden names is the block the tests' nginx runs
/// (`PublishRecordServingTests` serves through it): read, not run.
@Suite struct PublishGuideNginxTests {
    /// The block the harness runs is the one the guide gives, word for word.
    @Test func theGuidesNginxBlockIsTheOneTested() throws {
        let guide = try String(
            contentsOf: Shell.repositoryRoot.appendingPathComponent("docs/publishing.md"), encoding: .utf8)
        #expect(guide.contains(Nginx.hiddenNamesLocation), "docs/publishing.md lost: \(Nginx.hiddenNamesLocation)")
    }
}
