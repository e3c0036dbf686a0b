import Foundation
import NewsstandBuild
import NewsstandCore

/// `newsstand init`: creates a new magazine from the template.
enum InitCommand: Command {
    struct Options: CommandOptions {
        var folder = ""
        var ci: PipelineTemplate.Kind?
        var fansOut = false
        var releaseURL: String?
        var releaseSHA256: String?

        static var arguments: [Argument<Self>] {
            [
                .operand(
                    \.folder, "folder", .folder,
                    help: "where to create it (missing or empty), or with --ci an existing magazine to add the pipeline to"),
                .value(
                    \.ci, "--ci",
                    help: "also write the CI pipeline: github (.github/workflows/newsstand.yml) or gitlab (.gitlab-ci.yml)"),
                .flag(
                    \.fansOut, "--fan-out",
                    help:
                        "with --ci github: build each issue in a job of its own, then gather them and write the catalogs with 'newsstand catalog' (up to 256 issues)"
                ),
                .value(
                    \.releaseURL, "--release-url", .url,
                    help:
                        "with --ci: where the pipeline downloads this version's release tarball (newsstand-<version>-linux-<arch>.tar.gz)"
                ),
                .value(
                    \.releaseSHA256, "--release-sha256", .sha256,
                    help: "with --ci: that tarball's SHA-256, from the release's SHA256SUMS (the pipeline refuses any other file)"
                ),
            ]
        }

        /// The pipeline asked for with `--ci`, its release checked; nil without `--ci`.
        func pipeline() throws(UsageError) -> PipelineTemplate? {
            guard let ci else {
                if releaseURL != nil || releaseSHA256 != nil || fansOut {
                    throw UsageError(
                        "\(Self.name(\.releaseURL)), \(Self.name(\.releaseSHA256)) and \(Self.name(\.fansOut)) go with \(Self.name(\.ci))"
                    )
                }
                return nil
            }
            guard let releaseURL, let releaseSHA256 else {
                throw UsageError(
                    "\(Self.name(\.ci)) needs \(Self.name(\.releaseURL)) and \(Self.name(\.releaseSHA256)): the pipeline installs newsstand from that release tarball, pinned by its SHA-256"
                )
            }
            do {
                return try PipelineTemplate(kind: ci, fansOut: fansOut, releaseURL: releaseURL, releaseSHA256: releaseSHA256)
            } catch {
                switch error {
                case .fanOutNeedsGitHub:
                    throw UsageError(
                        "\(Self.name(\.fansOut)) is for \(Self.name(\.ci)) github (GitLab has no matrix built from a job's output)"
                    )
                case .unsafeReleaseURL:
                    throw UsageError(
                        "\(Self.name(\.releaseURL)) may hold only letters, digits and -._~:/?#[]@!&+,;=% (it goes into YAML and a shell)"
                    )
                case .credentialsInReleaseURL:
                    throw UsageError(
                        "\(Self.name(\.releaseURL)) must not hold credentials: a pipeline file is read by everyone with the repository"
                    )
                }
            }
        }

        func validate() throws(UsageError) { _ = try pipeline() }
    }

    static let declaration = CommandDeclaration(
        name: "init", summary: "create a new magazine with an example issue",
        arguments: Options.arguments,
        description: [
            "Creates a magazine in <folder> (which must not exist or be empty): magazine.plist and an example issue with a SimplePage and a PhotoPage and placeholder images in both sizes (pages of 768x1024, @2x 1536x2048). Edit magazine.plist's BaseURL (validate warns, NS-108, and publish refuses while it is the placeholder), then run 'newsstand validate <folder>'.",
            "With --ci, <folder> is meant as a repository's root and also gets the pipeline: on pull (merge) requests it validates and builds; on the main branch it builds what changed (the build records come back from the CI cache), publishes to the destination in the repository's secrets and verifies. It installs newsstand from the release tarball at --release-url, checked against --release-sha256. When <folder> is already a magazine (it holds magazine.plist), --ci adds only the pipeline, and never over a file that exists.",
        ],
        exitStatuses: [
            (0, "created (or the pipeline added)"),
            (1, "the folder is not empty (or already a magazine without --ci, or its pipeline file exists), or writing failed"),
            (2, "usage error"),
        ],
        environment: [("NEWSSTAND_TEMPLATES", "the templates folder (what is copied)")])

    static func run(_ options: Options, in context: CommandContext) throws -> Int32 {
        let path = options.folder
        let destination = URL(fileURLWithPath: path, isDirectory: true)
        let pipeline = try options.pipeline()
        let fileManager = FileManager.default
        let templates = try Templates.directory(environment: context.environment)
        if let kind = FileStatus.kind(of: destination) {
            let contents = (try? fileManager.contentsOfDirectory(atPath: destination.path)) ?? []
            if kind == .folder, !contents.isEmpty, contents.contains("magazine.plist") {
                guard let pipeline else {
                    context.console.err(
                        "newsstand init: error: '\(path)' is already a magazine; nothing was written (to add a CI pipeline to it: newsstand init \(path) --ci github|gitlab --release-url <url> --release-sha256 <sha256>)"
                    )
                    return ExitStatus.failure
                }
                return try addPipeline(pipeline, to: path, templates: templates, console: context.console)
            }
            guard kind == .folder, contents.isEmpty else {
                context.console.err("newsstand init: error: '\(path)' exists and is not an empty folder; nothing was written")
                return ExitStatus.failure
            }
        }
        let template = templates.appendingPathComponent("new-magazine", isDirectory: true)
        // Rendered before anything is written: a missing template leaves no half-made magazine.
        let pipelineText = try pipeline.map { try $0.render(templates: templates) }
        try fileManager.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in try fileManager.contentsOfDirectory(atPath: template.path) {
            try fileManager.copyItem(at: template.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        }
        if let pipeline, let pipelineText {
            let file = destination.appendingPathComponent(pipeline.kind.path)
            try fileManager.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(pipelineText.utf8).write(to: file, options: .withoutOverwriting)
        }
        context.console.out("created a magazine in \(path)")
        if let pipeline {
            context.console.out(
                "created its \(pipeline.kind.rawValue) pipeline in \((path as NSString).appendingPathComponent(pipeline.kind.path)): \(secretsHint)"
            )
        }
        context.console.out(
            "next: set BaseURL in \((path as NSString).appendingPathComponent("magazine.plist")), then run 'newsstand validate \(path)'"
        )
        return ExitStatus.success
    }

    /// What to do once a pipeline is written.
    static let secretsHint = "set the secrets it names (NEWSSTAND_DESTINATION, NEWSSTAND_USER, NEWSSTAND_PASSWORD)"

    /// Adds the pipeline to the existing magazine at `path`, and nothing else; a file already at
    /// the pipeline's path is never written over.
    private static func addPipeline(
        _ pipeline: PipelineTemplate, to path: String, templates: URL, console: Console
    ) throws -> Int32 {
        let shown = (path as NSString).appendingPathComponent(pipeline.kind.path)
        let file = URL(fileURLWithPath: path, isDirectory: true).appendingPathComponent(pipeline.kind.path)
        if FileStatus.kind(of: file) != nil {
            console.err(
                "newsstand init: error: '\(shown)' exists; nothing was written (move it away to have the pipeline written there)")
            return ExitStatus.failure
        }
        let text = try pipeline.render(templates: templates)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        do {
            try Data(text.utf8).write(to: file, options: .withoutOverwriting)
        } catch {
            console.err("newsstand init: error: cannot write '\(shown)': \(error.localizedDescription); nothing else was written")
            return ExitStatus.failure
        }
        console.out("added a \(pipeline.kind.rawValue) pipeline to the magazine in \(path): \(shown); \(secretsHint)")
        return ExitStatus.success
    }
}
