import Foundation
import NewsstandTestSupport
import Testing

/// `newsstand preview`, in process. Needs `PreviewCommand` in `NewsstandCommand.commands`.
@Suite struct PreviewCommandTests {
    static let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora")
    static let templates = Shell.repositoryRoot.appendingPathComponent("templates/preview")
    let sample = PreviewCommandTests.sample.path
    /// The executable finds its templates beside it in the source tree; this also works with
    /// another scratch path.
    let environment = ["NEWSSTAND_TEMPLATES": Shell.repositoryRoot.appendingPathComponent("templates").path, "NO_COLOR": "1"]

    private func preview(_ magazine: String, _ arguments: [String] = []) async throws -> (Shell.Result, URL) {
        let output = try Shell.temporaryFolder("preview-cli").appendingPathComponent("web")
        let result = await InProcess.newsstand(
            ["preview", magazine, "--output", output.path] + arguments, environment: environment)
        return (result, output)
    }

    @Test func isACommand() async throws {
        let help = await InProcess.newsstand(["--help"], environment: environment)
        #expect(help.stdout.contains("  preview "), "PreviewCommand is not registered in NewsstandCommand.commands")
        let own = await InProcess.newsstand(["preview", "--help"], environment: environment)
        #expect(own.status == 0 && own.stdout.hasPrefix("Usage: newsstand preview <magazine> --output <folder>"))
        let missing = await InProcess.newsstand(["preview", sample], environment: environment)
        #expect(missing.status == 2 && missing.stderr.contains("missing --output"))
    }

    @Test func previewsTheSample() async throws {
        let (result, output) = try await preview(sample)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("previewed 3 issue(s), 28 page(s)"), "\(result.stdout)")
        #expect(result.stdout.contains(output.appendingPathComponent("index.html").path))
        for path in ["index.html", "preview.css", "preview.js", "a-1/index.html", "a-2/cover@2x.png", "a-3/2-0-p1t@2x.png"] {
            #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(path).path), "\(path)")
        }
    }

    @Test func validationErrorsWriteNothing() async throws {
        let magazine = try Shell.temporaryFolder("preview-cli").appendingPathComponent("mag")
        try FileManager.default.copyItem(at: PreviewCommandTests.sample, to: magazine)
        let pages = magazine.appendingPathComponent("issues/a-2/pages.plist")
        let text = try String(contentsOf: pages, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "<string>PhotoPage</string>", with: "<string>PhotoPgae</string>").utf8).write(
            to: pages)
        let (result, output) = try await preview(magazine.path)
        #expect(result.status == 1)
        #expect(result.stdout.contains("NS-201") || result.stderr.contains("NS-201"), "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("validation failed; nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func jsonReport() async throws {
        let (result, _) = try await preview(sample, ["--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let report = try #require(document["preview"] as? [String: Any])
        #expect(report["written"] as? Bool == true)
        #expect(report["issues"] as? [String] == ["a-3", "a-2", "a-1"])
        #expect(report["pages"] as? Int == 28)
    }

    @Test func restyledTemplates() async throws {
        let templates = try Shell.temporaryFolder("preview-cli").appendingPathComponent("mine")
        try FileManager.default.copyItem(at: PreviewCommandTests.templates, to: templates)
        let index = templates.appendingPathComponent("index.html")
        let text = try String(contentsOf: index, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "Web edition", with: "Our own shelf").utf8).write(to: index)
        let (result, output) = try await preview(sample, ["--templates", templates.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8).contains("Our own shelf"))
    }
}
