import Foundation
import NewsstandTestSupport
import Testing

/// `validate --output` and `build` reusing the validation a build recorded: what is printed,
/// counted and left alone.
@Suite struct RecordReuseCommandTests {
    /// A copy of the sample, to edit.
    private func sampleCopy() throws -> URL {
        let magazine = try Shell.temporaryFolder().appendingPathComponent("aurora")
        try FileManager.default.copyItem(at: Shell.repositoryRoot.appendingPathComponent("Samples/aurora"), to: magazine)
        return magazine
    }

    @Test func validateWithOutputReusesRecordsAndStillReportsAndCountsTheirWarnings() async throws {
        let magazine = try sampleCopy()
        try Data("unused".utf8).write(to: magazine.appendingPathComponent("issues/a-1/assets/notes.txt"))
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let built = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(built.status == 0, "\(built.stderr)")
        let warning =
            "issues/a-1/assets/notes.txt: warning: 'notes.txt' is never referenced; it is left out of the bundles [NS-306]"
        let before = FolderSnapshot(output)

        let validated = await InProcess.newsstand(["validate", magazine.path, "--output", output.path])
        #expect(validated.status == 0)
        let lines = validated.stdout.split(separator: "\n").map {
            String($0).replacingOccurrences(of: magazine.path + "/", with: "")
        }
        #expect(lines.contains(warning), "\(validated.stdout)")
        #expect(
            lines.suffix(2) == [
                "0 errors, 1 warning in 3 issues", "reused the recorded validation of 3 of 3 issue(s) (\(output.path))",
            ])
        #expect(FolderSnapshot(output) == before)

        let strict = await InProcess.newsstand(["validate", magazine.path, "--output", output.path, "--strict"])
        #expect(strict.status == 1)

        // One issue edited: validated in full, the two others reused.
        try Data("x".utf8).write(to: magazine.appendingPathComponent("issues/a-2/assets/more.txt"))
        let edited = await InProcess.newsstand(["validate", magazine.path, "--output", output.path, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(edited.stdout.utf8)) as? [String: Any])
        let records = try #require(document["records"] as? [String: Any])
        #expect(records["reused"] as? [String] == ["a-1", "a-3"])
        #expect((document["summary"] as? [String: Any])?["warnings"] as? Int == 2)
        #expect(FolderSnapshot(output) == before)
    }

    @Test func validateWithAMissingOutputValidatesEverythingAndCreatesNothing() async throws {
        let output = try Shell.temporaryFolder().appendingPathComponent("never-built")
        let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path
        let result = await InProcess.newsstand(["validate", sample, "--output", output.path])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("reused the recorded validation of 0 of 3 issue(s) (\(output.path))\n"))
        #expect(result.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func buildWarnsAboutARecordItCannotTrustAndValidatesThatIssue() async throws {
        let magazine = try sampleCopy()
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        _ = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        let manifest = output.appendingPathComponent("a-3/.newsstand/manifest.json")
        try Data("[1, 2".utf8).write(to: manifest)

        let result = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(result.status == 0)
        #expect(
            result.stderr.split(separator: "\n").first.map(String.init)
                == "newsstand build: warning: issue 'a-3': \(manifest.path): is not a build manifest newsstand can read; the issue is validated again"
        )
        #expect(result.stdout.contains("built 1 issue(s): 2 bundles"))
        #expect(result.stdout.contains("2 up to date; 2 validation(s) reused from build records"))
    }

    @Test func buildWarnsAboutABuildIndexItCannotTrustAndReadsTheManifests() async throws {
        let magazine = try sampleCopy()
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        _ = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        let index = output.appendingPathComponent(".newsstand/build-index")
        var bytes = try Data(contentsOf: index)
        bytes[bytes.count / 2] ^= 0x01
        try bytes.write(to: index)

        let result = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(result.status == 0)
        let warning: String =
            "newsstand build: warning: build index \(index.path) is not used (its checksum does not match: it was edited or cut short); every issue's manifest is read instead"
        let lines: [String] = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines == [warning])
        #expect(result.stdout.contains("0 issue(s): 0 bundles, 0 bytes; 3 up to date; 3 validation(s) reused from build records"))
        // A good index replaces it.
        let again = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(again.stderr == "")
        // In a JSON report, the warning is among the records not used.
        try Data("not an index".utf8).write(to: index)
        let json = await InProcess.newsstand(["build", magazine.path, "--output", output.path, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let report = try #require(document["build"] as? [String: Any])
        #expect(
            report["recordWarnings"] as? [String] == [
                "build index \(index.path) is not used (it is not a build index); every issue's manifest is read instead"
            ])
        #expect(json.stderr == "")
    }

    @Test func forceReusesNoValidation() async throws {
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path
        _ = await InProcess.newsstand(["build", sample, "--output", output.path])
        let again = await InProcess.newsstand(["build", sample, "--output", output.path, "--force", "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let report = try #require(document["build"] as? [String: Any])
        #expect(report["validationReused"] as? [String] == [])
        #expect(report["built"] as? [String] == ["a-1", "a-2", "a-3"])
    }
}
