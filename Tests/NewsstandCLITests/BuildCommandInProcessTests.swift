import Foundation
import NewsstandTestSupport
import Testing

/// `newsstand build` and `newsstand catalog` on the sample, run in process: gathered matrix builds,
/// validation errors, the JSON report. The sample's output checked with tools we did not write is
/// in `BuildCommandTests`.
@Suite struct BuildCommandInProcessTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path
    let issues = ["a-1", "a-2", "a-3"]

    private func build(_ arguments: [String]) async throws -> (Shell.Result, URL) {
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let result = await InProcess.newsstand(["build", sample, "--output", output.path] + arguments)
        return (result, output)
    }

    @Test func matrixBuildsGatheredGiveTheSameCatalog() async throws {
        let (full, fullOutput) = try await build(["--feed", "shelf"])
        #expect(full.status == 0)
        let gathered = try Shell.temporaryFolder().appendingPathComponent("gathered")
        try FileManager.default.createDirectory(at: gathered, withIntermediateDirectories: true)
        for name in issues {
            // Each job with the same --feed as the full build: its Baker book is in its folder.
            let (one, output) = try await build(["--issue", name, "--feed", "shelf"])
            #expect(one.status == 0)
            try FileManager.default.copyItem(at: output.appendingPathComponent(name), to: gathered.appendingPathComponent(name))
        }
        let catalog = await InProcess.newsstand(["catalog", gathered.path, "--magazine", sample, "--feed", "shelf"])
        #expect(catalog.status == 0, "\(catalog.stderr)")
        for file in ["issues.plist", "shelf.json"] {
            #expect(
                try Data(contentsOf: gathered.appendingPathComponent(file))
                    == Data(contentsOf: fullOutput.appendingPathComponent(file)))
        }
    }

    @Test func validationErrorsWriteNothing() async throws {
        let magazine = try Shell.temporaryFolder().appendingPathComponent("aurora")
        try FileManager.default.copyItem(atPath: sample, toPath: magazine.path)
        try FileManager.default.removeItem(at: magazine.appendingPathComponent("issues/a-2/assets/cover@2x.png"))
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let result = await InProcess.newsstand(["build", magazine.path, "--output", output.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("NS-303"))
        #expect(result.stderr.contains("nothing was written"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func jsonReportAndNoChangeRebuild() async throws {
        let (_, output) = try await build([])
        let again = await InProcess.newsstand(["build", sample, "--output", output.path, "--format", "json"])
        #expect(again.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        let report = try #require(document["build"] as? [String: Any])
        #expect(report["built"] as? [String] == [])
        #expect(report["upToDate"] as? [String] == issues)
    }
}

/// Bundle and cover names: content-versioned by default, plain with `--fixed-names`.
@Suite struct BuildNamingTests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path

    @Test func fixedNamesOnRequest() async throws {
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let result = await InProcess.newsstand(["build", sample, "--output", output.path, "--fixed-names"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try BuiltIssue("a-1", in: output).files == [
                "a-1.zip", "a-1@2x.zip", "a-1.index.json", "a-1.index@2x.json", "cover.png", "cover@2x.png",
            ])
        // Switching back renames the outputs; the catalog follows.
        #expect(await InProcess.newsstand(["build", sample, "--output", output.path]).status == 0)
        let versioned = try BuiltIssue("a-1", in: output)
        #expect(versioned.bundle != "a-1.zip")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("a-1").path).sorted()
                == ([".newsstand"] + versioned.files).sorted())
    }

    @Test func versionedAndFixedNamesContradict() async throws {
        let output = try Shell.temporaryFolder().appendingPathComponent("out")
        let result = await InProcess.newsstand(["build", sample, "--output", output.path, "--versioned", "--fixed-names"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("newsstand build: error: --versioned and --fixed-names contradict each other"))
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
