import Foundation
import NewsstandTestSupport
import Testing

/// The outputs the README and the guides show are what a real run prints now: each is a fenced
/// block after a `<!-- example: NAME -->` line, and its test fails when the block differs from
/// the run. `make examples` (`NEWSSTAND_WRITE_EXAMPLES=1`) writes the runs' outputs into the
/// blocks instead, as `make reference` writes the reference.
@Suite struct DocumentedExampleTests {
    /// The documents that show the validate example.
    static let validateExampleDocuments = ["README.md", "docs/validating.md"]

    /// The README's validate example: the sample with a typo in a-1's first page class and a
    /// draft left in a-2's assets, validated as `newsstand validate Samples/aurora` from the
    /// repository's root.
    static func validateExample() async throws -> String {
        let root = try Shell.temporaryFolder("validate-example")
        let magazine = root.appendingPathComponent("Samples/aurora")
        try FileManager.default.createDirectory(at: magazine.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Shell.repositoryRoot.appendingPathComponent("Samples/aurora"), to: magazine)
        let pages = magazine.appendingPathComponent("issues/a-1/pages.plist")
        let text = try String(contentsOf: pages, encoding: .utf8)
        let typo = try #require(text.range(of: "<string>PhotoPage</string>"))
        try Data(text.replacingCharacters(in: typo, with: "<string>PhotoPgae</string>").utf8).write(to: pages)
        let assets = magazine.appendingPathComponent("issues/a-2/assets")
        try FileManager.default.copyItem(
            at: assets.appendingPathComponent("1-0.png"), to: assets.appendingPathComponent("draft.png"))
        let result = await InProcess.newsstand(["validate", magazine.path])
        #expect(result.status == 1)
        return result.stdout.replacingOccurrences(of: root.path + "/", with: "")
    }

    @Test func theValidateExampleIsARealRun() async throws {
        let output = try await Self.validateExample()
        let lines = output.split(separator: "\n").map(String.init)
        // The typo is one error, printed first; its page's images are not "never referenced".
        #expect(lines.count == 3, "\(output)")
        #expect(lines.first?.hasPrefix("Samples/aurora/issues/a-1/pages.plist:") == true)
        #expect(lines.first?.contains(": error: page class 'PhotoPgae' is unknown") == true)
        #expect(
            lines.filter { $0.contains("[NS-306]") } == [
                "Samples/aurora/issues/a-2/assets/draft.png: warning: 'draft.png' is never referenced; it is left out of the bundles [NS-306]"
            ])
        #expect(lines.last == "1 error, 1 warning in 3 issues")
        for document in Self.validateExampleDocuments {
            try Self.check(document, example: "validate", shows: output)
        }
    }

    /// Checks (or with `NEWSSTAND_WRITE_EXAMPLES=1`, writes) the block after `<!-- example: NAME -->`.
    static func check(_ document: String, example name: String, shows output: String) throws {
        let url = Shell.repositoryRoot.appendingPathComponent(document)
        let text = try String(contentsOf: url, encoding: .utf8)
        var lines = text.components(separatedBy: "\n")
        let marker = try #require(
            lines.firstIndex(of: "<!-- example: \(name) -->"), "\(document) has no '<!-- example: \(name) -->' line")
        let open = marker + 1
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"), "\(document): the example's block is not closed")
        #expect(lines[open] == "```", "\(document): a fenced block must follow the example's marker")
        let shown = lines[(open + 1)..<close].joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["NEWSSTAND_WRITE_EXAMPLES"] == "1" {
            lines.replaceSubrange(
                (open + 1)..<close,
                with: output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init))
            try Data(lines.joined(separator: "\n").utf8).write(to: url)
            return
        }
        #expect(shown == output, "\(document)'s '\(name)' example is not what a run prints now: run make examples")
    }
}
