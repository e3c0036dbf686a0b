import Foundation
import NewsstandBuild
import NewsstandCore

/// `newsstand init`: creates a new magazine from the template.
enum InitCommand: Command {
    static let declaration = CommandDeclaration(
        name: "init", summary: "create a new magazine with an example issue",
        operands: [OperandDeclaration("folder", .folder, help: "where to create it (missing or empty)")],
        options: [
            .value(
                "--ci", .choice(PipelineTemplate.Kind.allCases.map(\.rawValue)),
                help: "also write the CI pipeline: github (.github/workflows/newsstand.yml) or gitlab (.gitlab-ci.yml)"),
            .flag(
                "--fan-out",
                help: "with --ci github: build each issue in a job of its own, then gather them and write the catalogs with 'newsstand catalog' (up to 256 issues)"),
            .value(
                "--release-url", .url,
                help: "with --ci: where the pipeline downloads this version's release tarball (newsstand-<version>-linux-<arch>.tar.gz)"),
            .value(
                "--release-sha256", .sha256,
                help: "with --ci: that tarball's SHA-256, from the release's SHA256SUMS (the pipeline refuses any other file)"),
        ],
        description: [
            "Creates a magazine in <folder> (which must not exist or be empty): magazine.plist and an example issue with a SimplePage and a PhotoPage and placeholder images in both sizes. Edit magazine.plist's BaseURL, then run 'newsstand validate <folder>'.",
            "With --ci, <folder> is meant as a repository's root and also gets the pipeline: on pull (merge) requests it validates and builds; on the main branch it builds what changed (the build records come back from the CI cache), publishes to the destination in the repository's secrets and verifies. It installs newsstand from the release tarball at --release-url, checked against --release-sha256.",
        ],
        exitStatuses: [(0, "created"), (1, "the folder is not empty, or writing failed"), (2, "usage error")],
        environment: [("NEWSSTAND_TEMPLATES", "the templates folder (what is copied)")])

    static func run(_ arguments: ParsedArguments, in context: CommandContext) throws -> Int32 {
        let path = arguments.operands[0]
        let destination = URL(fileURLWithPath: path, isDirectory: true)
        let pipeline = try pipelineTemplate(arguments)
        let fileManager = FileManager.default
        if let kind = FileStatus.kind(of: destination) {
            let contents = (try? fileManager.contentsOfDirectory(atPath: destination.path)) ?? []
            guard kind == .folder, contents.isEmpty else {
                context.console.err("newsstand init: error: '\(path)' exists and is not an empty folder; nothing was written")
                return ExitStatus.failure
            }
        }
        let templates = try Templates.directory(environment: context.environment)
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
                "created its \(pipeline.kind.rawValue) pipeline in \((path as NSString).appendingPathComponent(pipeline.kind.path)): set the secrets it names (NEWSSTAND_DESTINATION, NEWSSTAND_USER, NEWSSTAND_PASSWORD)")
        }
        context.console.out(
            "next: set BaseURL in \((path as NSString).appendingPathComponent("magazine.plist")), then run 'newsstand validate \(path)'"
        )
        return ExitStatus.success
    }

    /// The pipeline asked for with `--ci`, its release checked; nil without `--ci`.
    private static func pipelineTemplate(_ arguments: ParsedArguments) throws(UsageError) -> PipelineTemplate? {
        guard let ci = arguments.value("--ci") else {
            if arguments.value("--release-url") != nil || arguments.value("--release-sha256") != nil || arguments.has("--fan-out") {
                throw UsageError("--release-url, --release-sha256 and --fan-out go with --ci")
            }
            return nil
        }
        guard let kind = PipelineTemplate.Kind(rawValue: ci), let url = arguments.value("--release-url"),
            let sha256 = arguments.value("--release-sha256")
        else {
            throw UsageError(
                "--ci needs --release-url and --release-sha256: the pipeline installs newsstand from that release tarball, pinned by its SHA-256")
        }
        return try PipelineTemplate(kind: kind, fansOut: arguments.has("--fan-out"), releaseURL: url, releaseSHA256: sha256)
    }
}
