import Foundation
import NewsstandTestSupport
import Testing

/// Errors are printed before warnings, in every format, whatever issue or file each is in: the
/// one error that stops a build is the first line read.
@Suite struct DiagnosticOrderTests {
    /// The sample with a warning in a-1 (a stray file) and an error in a-3 (a missing image).
    private func magazine() throws -> URL {
        let copy = try Shell.temporaryFolder("diagnostic-order").appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: Shell.repositoryRoot.appendingPathComponent("Samples/aurora"), to: copy)
        try Data("x".utf8).write(to: copy.appendingPathComponent("issues/a-1/assets/stray.png"))
        let pages = copy.appendingPathComponent("issues/a-3/pages.plist")
        let text = try String(contentsOf: pages, encoding: .utf8)
        let image = try #require(text.range(of: #"<string>[^<]*\.png</string>"#, options: .regularExpression))
        try Data(text.replacingCharacters(in: image, with: "<string>gone.png</string>").utf8).write(to: pages)
        return copy
    }

    @Test(arguments: ["text", "github", "json"])
    func errorsComeBeforeWarnings(format: String) async throws {
        let result = await InProcess.newsstand(["validate", try magazine().path, "--format", format])
        #expect(result.status == 1)
        let marks = [
            "text": (": error:", ": warning:"), "github": ("::error ", "::warning "),
            "json": (#""severity" : "error""#, #""severity" : "warning""#),
        ][format]!
        let error = try #require(result.stdout.range(of: marks.0), "\(result.stdout)")
        let warning = try #require(result.stdout.range(of: marks.1), "\(result.stdout)")
        #expect(error.lowerBound < warning.lowerBound, "\(result.stdout)")
        #expect(result.stdout.contains("NS-301"))
    }
}
