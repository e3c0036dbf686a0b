import Foundation
import NewsstandCLI
import NewsstandTestSupport
import Testing

/// What `validate`, `build` and `preview` print with `--format json` is exactly the Codable
/// type the guides name (`ValidationJSON` with its `records`, `build` or `preview`).
@Suite struct JSONDocumentTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path

    @Test func validateIsAValidationDocumentWithNullsForUnknownPlaces() async throws {
        let magazine = try Shell.temporaryFolder("json").appendingPathComponent("mag")
        try FileManager.default.copyItem(atPath: sample, toPath: magazine.path)
        try FileManager.default.removeItem(at: magazine.appendingPathComponent("issues/a-3/issue.plist"))
        try Data("x".utf8).write(to: magazine.appendingPathComponent("issues/a-1/assets/stray.png"))
        let result = await InProcess.newsstand(["validate", magazine.path, "--format", "json"])
        #expect(result.status == 1)
        let document = try JSONDocument.decode(ValidationJSON.self, from: result.stdout)
        #expect(document.summary.issues == 3 && document.summary.errors == 1 && document.summary.warnings > 0)
        let stray = try #require(document.diagnostics.first { $0.file?.hasSuffix("issues/a-1/assets/stray.png") == true })
        #expect(stray.code == "NS-306" && stray.severity == "warning" && stray.line == nil && stray.column == nil)
        #expect(result.stdout.contains("\"line\" : null"))
        #expect(document.records == nil && document.build == nil && document.preview == nil)
    }

    @Test func buildAndValidateWithItsRecordsAreValidationDocuments() async throws {
        let output = try Shell.temporaryFolder("json").appendingPathComponent("out")
        let built = await InProcess.newsstand(["build", sample, "-o", output.path, "-j", "1", "--format", "json"])
        #expect(built.status == 0, "\(built.stderr)")
        let build = try #require(try JSONDocument.decode(ValidationJSON.self, from: built.stdout).build)
        #expect(build.written && build.error == nil)
        #expect(build.built?.sorted() == ["a-1", "a-2", "a-3"] && build.upToDate == [])
        #expect(build.bundles == 6 && build.catalogEntries == 3 && build.output == output.path)

        let validated = await InProcess.newsstand(["validate", sample, "--output", output.path, "--format", "json"])
        let records = try #require(try JSONDocument.decode(ValidationJSON.self, from: validated.stdout).records)
        #expect(records.output == output.path && records.warnings == [])
        #expect(records.reused.sorted() == ["a-1", "a-2", "a-3"])
    }

    @Test func aBuildThatFailsValidationSaysOnlyThatNothingWasWritten() async throws {
        let magazine = try Shell.temporaryFolder("json").appendingPathComponent("mag")
        try FileManager.default.copyItem(atPath: sample, toPath: magazine.path)
        try FileManager.default.removeItem(at: magazine.appendingPathComponent("issues/a-2/issue.plist"))
        let output = magazine.deletingLastPathComponent().appendingPathComponent("out")
        let result = await InProcess.newsstand(["build", magazine.path, "-o", output.path, "--format", "json"])
        #expect(result.status == 1)
        let build = try #require(try JSONDocument.decode(ValidationJSON.self, from: result.stdout).build)
        #expect(!build.written && build.error == nil && build.built == nil && build.warnings == nil)
        #expect(result.stdout.contains("\"build\" : {\n    \"written\" : false\n  }"))
    }

    @Test func previewIsAValidationDocument() async throws {
        let output = try Shell.temporaryFolder("json").appendingPathComponent("web")
        let result = await InProcess.newsstand(["preview", sample, "-o", output.path, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        let preview = try #require(try JSONDocument.decode(ValidationJSON.self, from: result.stdout).preview)
        #expect(preview.written && preview.issues == ["a-3", "a-2", "a-1"] && preview.pages == 28)
        #expect(preview.index == output.appendingPathComponent("index.html").path)
    }
}
