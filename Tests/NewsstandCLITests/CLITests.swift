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
        let validation = await newsstand("validate", folder.path)
        #expect(validation.status == 0)
        // Only the placeholder BaseURL, which InitMagazineTests follows further.
        #expect(validation.stdout.hasSuffix("[NS-108]\n0 errors, 1 warning in 1 issue\n"), "\(validation.stdout)")
        let again = await newsstand("init", folder.path)
        #expect(again.status == 1)
        #expect(again.stderr.contains("is already a magazine; nothing was written (to add a CI pipeline to it: newsstand init"))
        let other = try Shell.temporaryFolder().appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("notes\n".utf8).write(to: other.appendingPathComponent("notes.txt"))
        let notEmpty = await newsstand("init", other.path, "--ci", "github", "--release-url", release, "--release-sha256", digest)
        #expect(notEmpty.status == 1)
        #expect(notEmpty.stderr.contains("exists and is not an empty folder; nothing was written"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path) == ["notes.txt"])
    }

    let release = "https://releases.example.com/newsstand-1.0.0-linux-x86_64.tar.gz"
    let digest = String(repeating: "ab", count: 32)

    @Test func ciIsAddedToAnExistingMagazineAndNeverOverAFile() async throws {
        let folder = try Shell.temporaryFolder().appendingPathComponent("my-magazine")
        #expect(await newsstand("init", folder.path).status == 0)
        let settings = try Data(contentsOf: folder.appendingPathComponent("magazine.plist"))
        for kind in ["github", "gitlab"] {
            let added = await newsstand("init", folder.path, "--ci", kind, "--release-url", release, "--release-sha256", digest)
            #expect(added.status == 0, "\(added.stderr)")
            #expect(added.stdout.contains("added a \(kind) pipeline to the magazine in \(folder.path)"), "\(added.stdout)")
        }
        let workflow = folder.appendingPathComponent(".github/workflows/newsstand.yml")
        #expect(try String(contentsOf: workflow, encoding: .utf8).contains(digest))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".gitlab-ci.yml").path))
        #expect(try Data(contentsOf: folder.appendingPathComponent("magazine.plist")) == settings)
        // A pipeline file that exists is never written over.
        try Data("mine\n".utf8).write(to: workflow)
        let again = await newsstand("init", folder.path, "--ci", "github", "--release-url", release, "--release-sha256", digest)
        #expect(again.status == 1)
        #expect(again.stderr.contains("'\(workflow.path)' exists; nothing was written"), "\(again.stderr)")
        #expect(try String(contentsOf: workflow, encoding: .utf8) == "mine\n")
    }
}
