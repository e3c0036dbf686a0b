import Foundation
import NewsstandTestSupport
import Testing

/// The `newsstand` executable itself, for what only a process shows: exit statuses of usage
/// errors, output to a pipe. The rest of the commands' behaviour runs in process in `CLITests`.
@Suite(.tags(.needsTools)) struct CLIExecutableTests {
    let cli = CLITests()

    /// The executable itself, for what only a process shows.
    private func executable(_ arguments: String...) throws -> Shell.Result {
        try Shell.run(Shell.newsstand, arguments)
    }

    @Test func usageErrorsExitWithTwo() throws {
        let unknownOption = try executable("validate", cli.sample, "--frobnicate")
        #expect(unknownOption.status == 2)
        #expect(unknownOption.stderr.contains("unknown option '--frobnicate'"))
        #expect(unknownOption.stderr.contains("Usage: newsstand validate"))
        #expect(try executable("frobnicate").status == 2)
        #expect(try executable("validate").status == 2)
        #expect(try executable("validate", cli.sample, "--format", "xml").status == 2)
        #expect(try executable("build", cli.sample).status == 2)
        #expect(try executable().status == 2)
    }

    @Test func textOutputIsLikeACompilersAndUncoloredWhenPiped() throws {
        let magazine = try cli.sampleCopy()
        let pages = magazine.appendingPathComponent("issues/a-1/pages.plist")
        let text = try String(contentsOf: pages, encoding: .utf8)
        try text.replacingOccurrences(of: "<string>PhotoPage</string>", with: "<string>PhotoPgae</string>")
            .write(to: pages, atomically: true, encoding: .utf8)
        let line = text.components(separatedBy: "\n").firstIndex { $0.contains("<string>PhotoPage</string>") }! + 1
        let result = try executable("validate", magazine.path)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "\(magazine.path)/issues/a-1/pages.plist:\(line): error: page class 'PhotoPgae' is unknown; did you mean 'PhotoPage'?"
            ))
        #expect(result.stdout.contains("[NS-201]"))
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(result.stdout.hasSuffix(" in 3 issues\n"))
    }
}
