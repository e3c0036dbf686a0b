import Foundation
import NewsstandTestSupport
import Testing

/// The `newsstand` commands: exit statuses, output formats, help and usage errors; in process
/// (the exit statuses of the executable and its output to a pipe: `CLIExecutableTests`).
@Suite struct CLITests {
    let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").path

    private func newsstand(_ arguments: String..., environment: [String: String] = [:]) async -> Shell.Result {
        await InProcess.newsstand(arguments, environment: environment)
    }

    /// A copy of the sample that a test may break.
    func sampleCopy() throws -> URL {
        let copy = try Shell.temporaryFolder().appendingPathComponent("aurora")
        try FileManager.default.copyItem(atPath: sample, toPath: copy.path)
        return copy
    }

    @Test func versionAndHelp() async throws {
        let version = await newsstand("--version")
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("newsstand "))
        let help = await newsstand("--help")
        #expect(help.status == 0)
        for command in ["init", "validate", "build", "catalog"] { #expect(help.stdout.contains("  \(command) ")) }
        let validateHelp = await newsstand("validate", "--help")
        #expect(validateHelp.status == 0)
        #expect(validateHelp.stdout.hasPrefix("Usage: newsstand validate"))
    }

    @Test func sampleValidatesClean() async throws {
        let result = await newsstand("validate", sample, "--strict")
        #expect(result.status == 0)
        #expect(result.stdout == "no problems found in 3 issues\n")
    }

    @Test func jsonIsOneDocumentWithEveryDiagnostic() async throws {
        let magazine = try sampleCopy()
        try FileManager.default.removeItem(at: magazine.appendingPathComponent("issues/a-2/assets/1-0@2x.png"))
        try Data("x".utf8).write(to: magazine.appendingPathComponent("issues/a-3/assets/extra.png"))
        let result = await newsstand("validate", magazine.path, "--format", "json")
        #expect(result.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
        let codes = diagnostics.compactMap { $0["code"] as? String }
        #expect(codes.contains("NS-303"))
        #expect(codes.contains("NS-306"))
        let missing = try #require(diagnostics.first { $0["code"] as? String == "NS-303" })
        #expect(missing["severity"] as? String == "error")
        #expect((missing["file"] as? String)?.hasSuffix("issues/a-2/pages.plist") == true)
        #expect((missing["line"] as? Int ?? 0) > 0)
        let summary = try #require(document["summary"] as? [String: Int])
        #expect(summary["errors"] == 1)
        #expect(summary["issues"] == 3)
    }

    @Test func githubAnnotations() async throws {
        let magazine = try sampleCopy()
        try Data("x".utf8).write(to: magazine.appendingPathComponent("issues/a-1/assets/stray.png"))
        let result = await newsstand("validate", magazine.path, "--format", "github")
        #expect(result.status == 0)
        #expect(
            result.stdout.contains(
                "::warning file=\(magazine.path)/issues/a-1/assets/stray.png,title=NS-306::'stray.png' is never referenced"))
        let strict = await newsstand("validate", magazine.path, "--strict")
        #expect(strict.status == 1)
        let ignored = await newsstand("validate", magazine.path, "--strict", "--ignore", "NS-306")
        #expect(ignored.status == 0)
    }

    @Test func onlySelectedIssues() async throws {
        let magazine = try sampleCopy()
        try FileManager.default.removeItem(at: magazine.appendingPathComponent("issues/a-1/pages.plist"))
        #expect(await newsstand("validate", magazine.path, "--issue", "a-2", "--issue", "a-3").status == 0)
        let all = await newsstand("validate", magazine.path)
        #expect(all.status == 1)
        #expect(all.stdout.contains("NS-001"))
    }

    @Test func initCreatesAMagazineThatValidatesAndRefusesToOverwrite() async throws {
        let folder = try Shell.temporaryFolder().appendingPathComponent("new")
        let created = await newsstand("init", folder.path)
        #expect(created.status == 0)
        let validation = await newsstand("validate", folder.path, "--strict")
        #expect(validation.status == 0)
        #expect(validation.stdout == "no problems found in 1 issue\n")
        let again = await newsstand("init", folder.path)
        #expect(again.status == 1)
        #expect(again.stderr.contains("not an empty folder"))
    }
}
